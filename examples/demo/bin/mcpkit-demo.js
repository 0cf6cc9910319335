#!/usr/bin/env node
// Runs the compiled demo; `pnpm build` produces it.
import '../dist/main.js';
