// Part 3 of the grammar's seeds (protocol-grammar-seeds.ts says what they prove).
import { grammarSeeds } from "./protocol-grammar-seeds.js";

grammarSeeds(2);
