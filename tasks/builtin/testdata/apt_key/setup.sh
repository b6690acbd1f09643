# Prepares the apt_key case's host (run by host.sh, after it installed
# gpg, gpg-agent and dirmngr from debs): an HTTP server for the keys
# (url) and a small HKP keyserver (keyserver), both on 127.0.0.1 only.
set -e
keys=/srv/testdata/apt_key/keys
nohup python3 -m http.server 8080 --bind 127.0.0.1 --directory "$keys" >/dev/null 2>&1 &
nohup python3 /srv/testdata/apt_key/hkp.py "$keys" >/dev/null 2>&1 &
i=0
until python3 -c 'import urllib.request as u; u.urlopen("http://127.0.0.1:8080/one.asc"); u.urlopen("http://127.0.0.1:11371/pks/lookup?op=get&search=0xA5B25468EF905CDE")' 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 100 ] || { echo "the key servers did not start" >&2; exit 1; }
	sleep 0.1
done
