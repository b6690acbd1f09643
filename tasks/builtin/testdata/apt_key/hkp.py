"""A tiny HKP keyserver for apt_key's fidelity test: it answers
/pks/lookup?op=get&search=0x<ID> with the armored key from the directory
given as its argument whose fingerprint ends with ID (keys are read with
gpg --with-colons when it starts), and 404 otherwise. It listens on
127.0.0.1:11371, inside the test's container only.

Usage: python3 hkp.py KEYDIR
"""
import http.server
import os
import subprocess
import sys
import urllib.parse

keydir = sys.argv[1]
keys = {}
for name in sorted(os.listdir(keydir)):
    if not name.endswith('.asc'):
        continue
    path = os.path.join(keydir, name)
    out = subprocess.run(['gpg', '--with-colons', '--show-keys', path],
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.split(':')
        if f[0] == 'fpr':
            keys[f[9].upper()] = open(path, 'rb').read()


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        q = urllib.parse.parse_qs(url.query)
        want = q.get('search', [''])[0].upper()
        if want.startswith('0X'):
            want = want[2:]
        body = None
        if url.path == '/pks/lookup' and q.get('op', [''])[0] == 'get' and want:
            for fpr, data in keys.items():
                if fpr.endswith(want):
                    body = data
        if body is None:
            self.send_error(404, 'No keys found')
            return
        self.send_response(200)
        self.send_header('Content-Type', 'application/pgp-keys')
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


http.server.ThreadingHTTPServer(('127.0.0.1', 11371), Handler).serve_forever()
