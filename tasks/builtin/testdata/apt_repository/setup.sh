# Prepares the apt_repository case's host (run by host.sh).
set -e
# disabled lines and a comment, not in Ansible's normal form
printf '#deb  [trusted=yes]  file:/srv/tender-apt/pip   ./   #  pip, for later\n\n   # a comment line\n' \
	>/etc/apt/sources.list.d/tender-extra.list
# an empty file, which Ansible removes at its first change
: >/etc/apt/sources.list.d/empty.list
# a PPA's line as Ansible writes it on a host without lsb_release
printf 'deb http://ppa.launchpad.net/tender/test/ubuntu sid main\n' >/etc/apt/sources.list.d/ppa_tender_test_sid.list
# a disabled source, which absent leaves alone
printf '# deb [trusted=yes] file:/srv/tender-apt/v2 ./\n' >/etc/apt/sources.list.d/disabled.list
