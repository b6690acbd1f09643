# Prepares the dpkg_selections case's host (run by host.sh): tender-hello
# installed then removed, so that dpkg keeps it as deinstall (config
# files left).
set -e
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q tender-hello >/dev/null
apt-get remove -y -q tender-hello >/dev/null
