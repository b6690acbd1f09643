# Prepares the patch case's host (a fresh tender-e2e/debian-sys, for
# both tools): the files the patches of files/ (mounted with this
# directory at /srv/testdata) apply to, under /srv/p.
set -e
mkdir -p /srv/p/two /srv/p/tree/sub /srv/p/rtree/sub "/srv/p/sp ace" /srv/p/conf
for f in /srv/p/one.txt /srv/p/two/one.txt "/srv/p/sp ace/one.txt" /srv/p/conf/one.txt /srv/p/alias.txt /srv/p/abs.txt; do
	printf 'alpha\nbeta\ngamma\n' >"$f"
done
for d in /srv/p/tree /srv/p/rtree; do
	printf 'a1\na2\n' >"$d/a.txt"
	printf 'b1\nb2\n' >"$d/sub/b.txt"
done
printf 'one\r\ntwo\r\nthree\r\n' >/srv/p/crlf.txt
printf 'one\r\ntwo\r\nthree\r\n' >/srv/p/crlf2.txt
printf 'x = 1\ny  =  2\n' >/srv/p/ws.txt
printf 'x = 1\ny  =  2\n' >/srv/p/ws2.txt
