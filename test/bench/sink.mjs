// A local API that discards bodies and answers success for every item, so a push measures the
// client alone. Items are counted by their `"externalId":` keys (a quote inside a JSON string is
// always escaped, so a title cannot fake one). GET /_count returns and resets the items received.
import { createServer } from 'node:http';

const KEY = Buffer.from('"externalId":');
let received = 0;

function countItems(body) {
  let n = 0;
  for (let at = body.indexOf(KEY); at !== -1; at = body.indexOf(KEY, at + KEY.length)) n++;
  return n;
}

const server = createServer({ keepAliveTimeout: 10_000 }, (req, res) => {
  if (req.method === 'GET' && req.url === '/_count') {
    res.end(JSON.stringify({ items: received }));
    received = 0;
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const n = countItems(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    received += n;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"data":{"code":200,"success":${n},"error":[]},"status":"SUCCESS"}`);
  });
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
process.on('SIGTERM', () => process.exit(0));
