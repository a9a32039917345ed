// The floor for `pnpm bench`: the least a Node server does for a client_credentials grant — node:http, one RS256
// signature on the libuv thread pool (as idsvc signs), a JSON answer — with no framework, no client authentication,
// no form and no claims. idsvc's distance from it is what idsvc's own code costs; its distance from the signing
// limit is what HTTP on node:http and the hand-over to the pool cost on the machine. Run as its own process:
// prints `listening on <url>`.
import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 0) || 0;
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
let issuer = '';
const header = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: 'floor' })).toString('base64url');

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: issuer, sub: 'bench-cc', aud: 'bench-cc', iat: now, exp: now + 3600 };
    const input = `${header}.${Buffer.from(JSON.stringify({ ...claims, jti: randomUUID(), scope: 'api' })).toString('base64url')}`;
    sign('sha256', Buffer.from(input), privateKey, (error, signature) => {
      if (error) {
        res.writeHead(500).end();
        return;
      }
      const body = `{"access_token":"${input}.${signature.toString('base64url')}","token_type":"Bearer","expires_in":3600,"scope":"api"}`;
      res.writeHead(200, {
        'Content-Type': 'application/json; charset=UTF-8',
        'Cache-Control': 'no-store',
        'Content-Length': Buffer.byteLength(body),
      });
      res.end(body);
    });
  });
});
server.listen(port, '127.0.0.1', () => {
  issuer = `http://127.0.0.1:${server.address().port}`;
  console.log(`listening on ${issuer}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
