# The keys on the host, and a web server on the host's loopback serving
# this directory (rpm_key fetches URLs from the host's network).
set -e
mkdir -p /root/keys
cp /srv/testdata/key1.asc /srv/testdata/key2.asc /root/keys/
echo "not a key" >/root/keys/notakey.txt
cd /srv/testdata
setsid python3 -m http.server 8080 --bind 127.0.0.1 </dev/null >/dev/null 2>&1 &
i=0
until python3 -c 'import urllib.request; urllib.request.urlopen("http://127.0.0.1:8080/key1.asc")' 2>/dev/null; do
	i=$((i + 1)); [ $i -lt 100 ] || exit 1
	sleep 0.1
done
