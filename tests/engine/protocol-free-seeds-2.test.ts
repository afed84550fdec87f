// Part 2 of the seeds without the grammar (protocol-free-seeds.ts says what they prove).
import { freeSeeds } from "./protocol-free-seeds.js";

freeSeeds(1);
