export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";
