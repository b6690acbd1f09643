#!/bin/sh
# run-systemd.sh KEYS [DOCKER-RUN-ARGS...] starts a container of
# tender-e2e/debian-systemd with systemd as PID 1, sshd published on a
# 127.0.0.1 port and KEYS as /etc/ssh/tender_authorized_keys, and prints
# its id. systemd needs a writable cgroup tree and its own /run; with
# cgroup v1 and the host's cgroup namespace it keeps to the container's
# cgroup (/docker/<id>), so nothing outside the container is managed.
# --privileged is not used: it is refused where Docker itself lacks a
# capability. TENDER_SYSTEMD_IMAGE names another image that boots the
# same way (tender-e2e/debian-firewalld).
set -eu
keys=$1
shift
exec docker run -d -e container=docker --tmpfs /run --tmpfs /run/lock \
	--cap-add SYS_ADMIN --security-opt seccomp=unconfined --security-opt apparmor=unconfined \
	-v /sys/fs/cgroup:/sys/fs/cgroup:rw -p 127.0.0.1::22 \
	-v "$keys:/etc/ssh/tender_authorized_keys:ro" "$@" "${TENDER_SYSTEMD_IMAGE:-tender-e2e/debian-systemd}"
