package packages

import _ "embed"

// packageFactsScript lists the installed packages of the managers in
// $managers (space-separated, in order; "@native" stands for apt and rpm
// in the host's own order: apt first on a host whose os-release says
// Debian or Ubuntu, rpm first elsewhere). As Ansible's package_facts, it
// skips a manager seen before, and with $strategy "first" stops after
// the first one found. It prints order= (the list it went through),
// found=<manager> for each one found, then its blobs: for apt, native=
// (dpkg's architecture), the dpkg-query listing (blob dpkg, or dpkg_err),
// apt-cache policy's package files (blob files) and the version tables
// of the installed packages (blob policy); for rpm, rpm -qa's listing
// (blob rpm, or rpm_err). A manager tender does not read (apk, pacman,
// pkg, pkg_info, portage) whose tool is on the host stops the script
// with unsupported=<manager> <path>; one whose tool is absent is skipped,
// as Ansible skips it.
//
//go:embed package_facts.sh
var packageFactsScript string
