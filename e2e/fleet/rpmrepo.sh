#!/usr/bin/env bash
# Builds the rh hosts' local rpm repositories, which the containers see
# read-only at /srv/tender-rpm (e2e/fleet_test.go's fresh bind-mounts it; the
# image's /etc/yum.repos.d/tender.repo, from rh/tender.repo, names them):
#
#   OUT/main/    repository tender-main (enabled, no signature check):
#                tender-base 1.0, tender-app 1.0 (requires tender-base),
#                tender-hello 1.0 and 2.0 (for state=latest), tender-tool,
#                tender-one, tender-two and tender-three 1.0
#   OUT/extra/   repository tender-extra (disabled, checks signatures):
#                tender-extra 1.0, installable only with enablerepo and
#                disable_gpg_check (the packages are not signed)
#   OUT/local/   tender-local-1.0-1.noarch.rpm, in no repository: installed
#                by its path
#   OUT/case/    repository for dnf's fidelity case (tasks/builtin/testdata/dnf,
#                whose setup.sh adds it): tender-sec, tender-fix and
#                tender-plain 1.0 and 2.0, with an updateinfo naming
#                tender-sec 2.0 a security update and tender-fix 2.0 a
#                bugfix; tender-weak (recommends tender-rec), tender-rec;
#                tender-broken (requires tender-missing, which nothing
#                provides); tender-conflict (conflicts with tender-rec)
#
# Every package is a tiny noarch rpm built here by rpmbuild from fixed
# inputs (a script /usr/bin/NAME printing its version and a data file), with
# automatic dependencies off so that a Debian root's empty rpm database
# satisfies them. The indexes are made by createrepo_c.
#
# Usage: rpmrepo.sh [OUT]   (default: e2e/.fleet/rpm). Rebuilt only when
# this script changes. Needs rpmbuild (Debian's rpm), createrepo_c and
# modifyrepo_c (createrepo-c).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../.fleet/rpm}
mkdir -p "$out"
out=$(cd "$out" && pwd)
# Test binaries running side by side take turns.
exec 9>"$out.lock"
flock 9
inputs=$(sha256sum <"$here/rpmrepo.sh" | cut -c1-16)
if [[ -f "$out/.inputs" && "$(cat "$out/.inputs")" == "$inputs" ]]; then
	echo "rpm repository $out is up to date"
	exit 0
fi
for t in rpmbuild createrepo_c modifyrepo_c; do
	command -v "$t" >/dev/null || { echo "$t is not installed (apt-get install rpm createrepo-c)" >&2; exit 1; }
done
export SOURCE_DATE_EPOCH=1700000000
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# build NAME VERSION DIR [REQUIRES] [TAG: VALUE]: NAME-VERSION-1.noarch.rpm
# into DIR; TAG is another dependency (Recommends, Conflicts).
build() {
	local name=$1 v=$2 dir=$3 req=${4:-} more=${5:-} spec="$work/$1-$2.spec"
	{
		echo "Name: $name"
		echo "Version: $v"
		echo "Release: 1"
		echo "Summary: tender's test package $name, version $v"
		echo "License: MIT"
		echo "BuildArch: noarch"
		echo "AutoReqProv: no"
		[[ -n "$req" ]] && echo "Requires: $req"
		[[ -n "$more" ]] && echo "$more"
		cat <<SPEC
%description
Installs /usr/bin/$name (prints its version) and a data file, so that
install, upgrade and remove can be observed.
%install
mkdir -p %{buildroot}/usr/bin %{buildroot}/usr/share/$name
printf '#!/bin/sh\\necho "$name $v"\\n' >%{buildroot}/usr/bin/$name
echo $v >%{buildroot}/usr/share/$name/version
%files
%attr(0755,root,root) /usr/bin/$name
%attr(0644,root,root) /usr/share/$name/version
SPEC
	} >"$spec"
	rpmbuild -bb --quiet --nodeps \
		--define "_topdir $work/top" --define "_rpmdir $dir" --define '_build_name_fmt %%{NAME}-%%{VERSION}-%%{RELEASE}.%%{ARCH}.rpm' \
		--define '_buildhost tender.invalid' --define 'use_source_date_epoch_as_buildtime 1' \
		--define 'clamp_mtime_to_source_date_epoch 1' --define '_binary_payload w9.gzdio' \
		"$spec" >"$work/rpmbuild.log" 2>&1 || { cat "$work/rpmbuild.log" >&2; exit 1; }
}

rm -rf "$out.new" && mkdir -p "$out.new/main" "$out.new/extra" "$out.new/local" "$out.new/case"
build tender-base 1.0 "$out.new/main"
build tender-app 1.0 "$out.new/main" tender-base
build tender-hello 1.0 "$out.new/main"
build tender-hello 2.0 "$out.new/main"
for p in tender-tool tender-one tender-two tender-three; do build "$p" 1.0 "$out.new/main"; done
build tender-extra 1.0 "$out.new/extra"
build tender-local 1.0 "$out.new/local"
for p in tender-sec tender-fix tender-plain; do
	build "$p" 1.0 "$out.new/case"
	build "$p" 2.0 "$out.new/case"
done
build tender-weak 1.0 "$out.new/case" "" "Recommends: tender-rec"
build tender-rec 1.0 "$out.new/case"
build tender-broken 1.0 "$out.new/case" tender-missing
build tender-conflict 1.0 "$out.new/case" "" "Conflicts: tender-rec"
for r in main extra case; do
	createrepo_c -q --set-timestamp-to-revision --revision "$SOURCE_DATE_EPOCH" "$out.new/$r" >/dev/null
done
# advisory TYPE ID NAME: an update of TYPE naming NAME 2.0.
advisory() {
	cat <<XML
  <update from="e2e@tender.invalid" status="stable" type="$1" version="1">
    <id>$2</id>
    <title>$3 2.0</title>
    <issued date="2024-01-01 00:00:00"/>
    <description>tender's test advisory for $3 2.0</description>
    <pkglist>
      <collection short="tender">
        <name>tender</name>
        <package name="$3" version="2.0" release="1" epoch="0" arch="noarch">
          <filename>$3-2.0-1.noarch.rpm</filename>
        </package>
      </collection>
    </pkglist>
  </update>
XML
}
{
	echo '<?xml version="1.0" encoding="UTF-8"?>'
	echo '<updates>'
	advisory security TENDER-SA-0001 tender-sec
	advisory bugfix TENDER-BA-0001 tender-fix
	echo '</updates>'
} >"$work/updateinfo.xml"
modifyrepo_c --mdtype=updateinfo "$work/updateinfo.xml" "$out.new/case/repodata" >/dev/null
echo "$inputs" >"$out.new/.inputs"
rm -rf "$out" && mv "$out.new" "$out"
echo "built rpm repository $out: $(cd "$out" && ls main/*.rpm extra/*.rpm local/*.rpm case/*.rpm | tr '\n' ' ')"
