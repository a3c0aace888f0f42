// The page's server in the browser tests: build/web served on the loopback
// address, as any static host serves it; it keeps the URLs it was asked for.
'use strict';
const http = require('http');
const fs = require('fs');
const path = require('path');

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.json': 'application/json', '.png': 'image/png' };

function serve(root) {
  const requests = [];
  const foreign = [];
  const server = http.createServer((req, res) => {
    const origin = `http://127.0.0.1:${server.address().port}`;
    const url = new URL(req.url, origin);
    requests.push(url.href);
    if (url.origin !== origin) {
      foreign.push(url.href);
      res.writeHead(403);
      res.end();
      return;
    }
    const rel = path.normalize(decodeURIComponent(url.pathname)).replace(/^([/\\]*\.\.)+/, '');
    const file = path.join(root, rel.endsWith('/') ? rel + 'index.html' : rel);
    fs.readFile(file, (err, data) => {
      if (err) {
        res.writeHead(404);
        res.end();
        return;
      }
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
      res.end(data);
    });
  });
  // HTTPS and websockets through the proxy: refused and recorded.
  server.on('connect', (req, socket) => {
    foreign.push('connect ' + req.url);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ server, requests, foreign,
    origin: `http://127.0.0.1:${server.address().port}` })));
}

module.exports = { serve };
