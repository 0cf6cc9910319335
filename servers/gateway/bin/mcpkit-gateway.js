#!/usr/bin/env node
// Runs the compiled entry point; `pnpm build` produces it.
import '../dist/main.js';
