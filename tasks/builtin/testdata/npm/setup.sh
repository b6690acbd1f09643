# setup.sh makes the npm fleet host's own registry: a few packages packed
# with npm and served by python3's http.server on 127.0.0.1:4873, named
# as the host's registry in /etc/npmrc (no network is reachable).
set -eu
work=/tmp/npm-src reg=/srv/registry
mkdir -p "$work" "$reg/tarballs"
pkg() { # name version [extra package.json fields]
	d=$work/$1-$2
	mkdir -p "$d/bin"
	printf '{"name": "%s", "version": "%s", "main": "index.js"%s}\n' "$1" "$2" "${3:-}" >"$d/package.json"
	printf 'module.exports = "%s@%s";\n' "$1" "$2" >"$d/index.js"
	printf '#!/usr/bin/env node\nconsole.log("%s %s");\n' "$1" "$2" >"$d/bin/cli.js"
	(cd "$d" && npm pack --silent --pack-destination "$reg/tarballs" >/dev/null)
}
pkg tender-demo-a 1.0.0
pkg tender-demo-a 1.1.0
pkg tender-demo-b 2.0.0 ', "bin": {"tender-demo-b": "bin/cli.js"}'
pkg tender-demo-c 0.1.0 ', "scripts": {"postinstall": "touch /tmp/tender-demo-c-postinstall"}'
pkg tender-demo-d 3.0.0 ', "dependencies": {"tender-demo-a": "^1.0.0"}'
python3 - "$reg" <<'PY'
import base64, glob, hashlib, json, os, sys
reg = sys.argv[1]
docs = {}
for t in sorted(glob.glob(reg + '/tarballs/*.tgz')):
    data = open(t, 'rb').read()
    base = os.path.basename(t)[:-4]
    name, version = base.rsplit('-', 1)
    meta = {'name': name, 'version': version,
            'dist': {'tarball': 'http://127.0.0.1:4873/tarballs/' + os.path.basename(t),
                     'shasum': hashlib.sha1(data).hexdigest(),
                     'integrity': 'sha512-' + base64.b64encode(hashlib.sha512(data).digest()).decode()}}
    pj = json.load(open('/tmp/npm-src/%s-%s/package.json' % (name, version)))
    for k in ('bin', 'scripts', 'dependencies'):
        if k in pj:
            meta[k] = pj[k]
    if 'postinstall' in pj.get('scripts', {}):
        meta['hasInstallScript'] = True
    d = docs.setdefault(name, {'name': name, 'versions': {}, 'dist-tags': {}})
    d['versions'][version] = meta
    d['dist-tags']['latest'] = version
for name, d in docs.items():
    json.dump(d, open(os.path.join(reg, name), 'w'))
PY
nohup python3 -m http.server 4873 --bind 127.0.0.1 --directory "$reg" >/tmp/registry.log 2>&1 &
printf 'registry=http://127.0.0.1:4873/\naudit=false\nfund=false\nupdate-notifier=false\nloglevel=error\n' >/etc/npmrc
i=0
until [ "$(python3 -c 'import urllib.request; print(urllib.request.urlopen("http://127.0.0.1:4873/tender-demo-a").status)' 2>/dev/null)" = 200 ]; do
	i=$((i + 1))
	[ $i -lt 50 ] || { echo "the registry did not start" >&2; exit 1; }
	sleep 0.2
done
mkdir -p /srv/app /srv/prod /srv/ci
printf '{"name": "prod", "version": "1.0.0", "dependencies": {"tender-demo-a": "1.0.0"}, "devDependencies": {"tender-demo-b": "2.0.0"}}\n' >/srv/prod/package.json
printf '{"name": "ci", "version": "1.0.0", "dependencies": {"tender-demo-d": "3.0.0"}}\n' >/srv/ci/package.json
(cd /srv/ci && npm install --package-lock-only --silent >/dev/null)
touch /srv/afile
