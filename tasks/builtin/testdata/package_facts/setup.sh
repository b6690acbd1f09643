# Prepares the package_facts case's host (run by host.sh): a flat
# repository whose Release names an Origin (/srv/origin: tender-origin
# for the native architecture, tender-foreign for i386), i386 added as
# a foreign architecture, and installed from the repositories:
# tender-origin, tender-foreign:i386, tender-hello and tree; hello
# installed then removed (config files left: not installed).
set -e
export DEBIAN_FRONTEND=noninteractive
mk() { # NAME ARCH
	d=/tmp/build/$1
	mkdir -p "$d/DEBIAN" "$d/usr/share/doc/$1"
	printf 'Package: %s\nVersion: 1.0-1\nArchitecture: %s\nMaintainer: tender e2e <e2e@tender.invalid>\nSection: %s\nPriority: optional\nMulti-Arch: same\nDescription: tender test package %s\n' \
		"$1" "$2" "$3" "$1" >"$d/DEBIAN/control"
	echo "$1" >"$d/usr/share/doc/$1/name"
	dpkg-deb --root-owner-group -Zgzip --build "$d" "/srv/origin/$1_1.0-1_$2.deb" >/dev/null
}
mkdir -p /srv/origin
mk tender-origin "$(dpkg --print-architecture)" contrib/misc
mk tender-foreign i386 libs
cd /srv/origin
for f in *.deb; do
	dpkg-deb -f "$f"
	printf 'Filename: ./%s\nSize: %s\nSHA256: %s\n\n' "$f" "$(wc -c <"$f")" "$(sha256sum "$f" | cut -d' ' -f1)"
done >Packages
printf 'Origin: tender-origin-test\nLabel: tender\nSuite: stable\nCodename: tender\nDate: Thu, 01 Jan 2015 00:00:00 UTC\nSHA256:\n %s %s Packages\n' \
	"$(sha256sum Packages | cut -d' ' -f1)" "$(wc -c <Packages)" >Release
echo 'deb [trusted=yes] file:/srv/origin ./' >/etc/apt/sources.list.d/origin.list
dpkg --add-architecture i386
apt-get update -q >/dev/null
apt-get install -y -q tender-origin tender-foreign:i386 tender-hello tree hello >/dev/null
apt-get remove -y -q hello >/dev/null
