# setup.sh prepares a debian-sys host for testdata/alternatives/tasks.yml:
# programs and manual pages to offer as alternatives.
set -e
mkdir -p /opt/alt /usr/local/share/man/man1
for i in 1 2 3 4; do
	printf '#!/bin/sh\necho foo%s\n' "$i" >/opt/alt/foo$i
	chmod 755 /opt/alt/foo$i
	echo "manual $i" >/opt/alt/foo$i.1
	echo "info $i" >/opt/alt/foo$i.info
done
