// Stage (a), the floor: csv-parse streaming the file and counting records, nothing else.
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';

let records = 0;
const parser = createReadStream(process.argv[2]).pipe(parse({ relax_column_count: true }));
for await (const _ of parser) records++;
console.log(JSON.stringify({ records: records - 1 }));
