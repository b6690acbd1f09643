# Prepares the apt_upgrade case's host (run by host.sh): a flat
# repository /srv/svc holding tender-svc, whose maintainer scripts log
# what /usr/sbin/policy-rc.d answers (or "none" without one) to
# /var/lib/tender-svc.log, as invoke-rc.d asks it before starting a
# service; and tender-gone, a package no repository has, left in apt's
# archive directory for autoclean to delete.
set -e
export SOURCE_DATE_EPOCH=1700000000
mk() { # NAME DIR
	d=/tmp/build/$1
	mkdir -p "$d/DEBIAN" "$d/usr/share/doc/$1"
	printf 'Package: %s\nVersion: 1.0\nArchitecture: all\nMaintainer: tender e2e <e2e@tender.invalid>\nSection: misc\nPriority: optional\nDescription: tender test package %s\n' \
		"$1" "$1" >"$d/DEBIAN/control"
	for s in postinst prerm; do
		printf '#!/bin/sh\nif [ -x /usr/sbin/policy-rc.d ]; then /usr/sbin/policy-rc.d %s start; r=$?; else r=none; fi\necho "%s $1: $r" >>/var/lib/tender-svc.log\n' "$1" "$s" >"$d/DEBIAN/$s"
		chmod 0755 "$d/DEBIAN/$s"
	done
	echo "$1" >"$d/usr/share/doc/$1/name"
	# the same bytes on every host: fixed times
	find "$d" -exec touch -h -d @1700000000 {} +
	dpkg-deb --root-owner-group -Zgzip --build "$d" "$2/$1_1.0_all.deb" >/dev/null
}
mkdir -p /srv/svc
mk tender-svc /srv/svc
mk tender-gone /var/cache/apt/archives
cd /srv/svc
for f in *.deb; do
	dpkg-deb -f "$f"
	printf 'Filename: ./%s\nSize: %s\nSHA256: %s\n\n' "$f" "$(wc -c <"$f")" "$(sha256sum "$f" | cut -d' ' -f1)"
done >Packages
printf 'Origin: tender-svc\nLabel: tender\nSuite: stable\nCodename: tender\nDate: Thu, 01 Jan 2015 00:00:00 UTC\nSHA256:\n %s %s Packages\n' \
	"$(sha256sum Packages | cut -d' ' -f1)" "$(wc -c <Packages)" >Release
echo 'deb [trusted=yes] file:/srv/svc ./' >/etc/apt/sources.list.d/svc.list
