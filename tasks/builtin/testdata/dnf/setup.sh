# Prepares the dnf case's rh host (run by host.sh): the fleet's case
# repository (e2e/fleet/rpmrepo.sh) enabled beside tender-main, the 1.0
# of tender-hello, tender-sec, tender-fix and tender-plain installed (each
# has a 2.0), and /etc/dnf/alt.conf: dnf.conf excluding tender-three.
set -e
cat >/etc/yum.repos.d/tender-case.repo <<'R'
[tender-case]
name=tender e2e case
baseurl=file:///srv/tender-rpm/case
enabled=1
gpgcheck=0
R
dnf -y -q install tender-hello-1.0 tender-sec-1.0 tender-fix-1.0 tender-plain-1.0 >/dev/null 2>&1
{ cat /etc/dnf/dnf.conf; echo 'excludepkgs=tender-three'; } >/etc/dnf/alt.conf
