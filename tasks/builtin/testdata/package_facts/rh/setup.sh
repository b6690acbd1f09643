# Prepares the package_facts case's rh host (run by host.sh): two rpms
# of the fleet's repository and a GPG key imported into rpm's database
# (a gpg-pubkey package: no epoch, no arch).
set -e
rpm -i /srv/tender-rpm/main/tender-base-1.0-1.noarch.rpm /srv/tender-rpm/main/tender-hello-1.0-1.noarch.rpm
rpm --import /srv/testdata/apt_key/keys/one.asc
