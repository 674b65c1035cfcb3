import { contractFuzz } from './contract-fuzz.js';

contractFuzz('sqlite');
