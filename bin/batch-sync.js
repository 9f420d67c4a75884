#!/usr/bin/env node
// The published entry point: the compiled CLI lives in dist/ (built by `npm ci` through `prepare`).
import { main } from '../dist/main.js';

process.exitCode = await main(process.argv);
