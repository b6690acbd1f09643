#!/usr/bin/env bash
# Builds the e2e fleet's virtual machine: a Debian bookworm root made by
# debootstrap from the machine's own apt mirror, with Debian's kernel,
# systemd, sshd, python3, lvm2 and SELinux's reference policy (its files
# labelled, so that a boot with security=selinux runs it, permissive), as
# a raw ext4 disk image, for what a container cannot be (device-mapper,
# block devices, an LSM, its own kernel). run-vm.sh boots copies of it
# under qemu.
#
# Writes e2e/.fleet/vm/: root.img, vmlinuz, initrd.img, and key/key.pub,
# the key root logs in with (made here, for tests only). Cached: rebuilt
# when this script changes, or with --force. Needs root (debootstrap,
# chroot), mkfs.ext4 and qemu (.ci/install.sh test installs them).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../.fleet/vm"
mkdir -p "$out"
exec {lock}>"$out.lock"
flock "$lock"
inputs=$(sha256sum <"$here/build-vm.sh" | cut -c1-16)
if [[ "${1:-}" != "--force" && -f "$out/root.img" && "$(cat "$out/inputs" 2>/dev/null)" == "$inputs" ]]; then
	echo "the fleet VM is up to date"
	exit 0
fi
((EUID == 0)) || { echo "building the fleet VM needs root (debootstrap): run this as root" >&2; exit 1; }
mirror=$(awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true)
if [[ -z "$mirror" ]]; then
	mirror=$(awk '/^URIs:/ { u = $2 } /^Suites:.*bookworm( |$)/ { if (u != "") { print u; exit } }' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
fi
[[ -n "$mirror" ]] || { echo "no bookworm mirror found in /etc/apt/sources.list*" >&2; exit 1; }
root=$(mktemp -d "$out.root.XXXXXX")
trap 'umount "$root/proc" 2>/dev/null || true; rm -rf "$root"' EXIT
echo "debootstrap the fleet VM from $mirror ..."
debootstrap --variant=minbase \
	--include=linux-image-amd64,initramfs-tools,systemd,systemd-sysv,udev,kmod,openssh-server,python3,python3-apt,sudo,procps,iproute2,netbase,lvm2,thin-provisioning-tools,selinux-policy-default,selinux-utils,policycoreutils,python3-selinux,python3-semanage \
	bookworm "$root" "$mirror" >"$out.debootstrap.log" 2>&1 || { tail -20 "$out.debootstrap.log" >&2; exit 1; }
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
echo '/dev/vda / ext4 defaults 0 1' >"$root/etc/fstab"
echo vm >"$root/etc/hostname"
mkdir -p "$root/etc/systemd/network" "$root/root/.ssh"
printf '[Match]\nName=en*\n[Network]\nDHCP=yes\n' >"$root/etc/systemd/network/10-en.network"
chroot "$root" systemctl enable systemd-networkd >/dev/null 2>&1
chroot "$root" systemctl mask getty@tty1.service >/dev/null 2>&1
chroot "$root" ssh-keygen -A >/dev/null
# SELinux reads each file's label from its xattr: label the tree as the
# policy's file_contexts say, before mkfs copies it with its xattrs.
mount -t proc proc "$root/proc"
chroot "$root" setfiles -F -e /proc -e /sys /etc/selinux/default/contexts/files/file_contexts / >"$out.setfiles.log" 2>&1 ||
	{ tail -20 "$out.setfiles.log" >&2; exit 1; }
umount "$root/proc"
grep -q '^SELINUX=permissive' "$root/etc/selinux/config" || { echo "the VM's SELinux is not permissive" >&2; exit 1; }
rm -f "$out/key" "$out/key.pub"
ssh-keygen -q -t ed25519 -N '' -C tender-fleet-vm -f "$out/key"
install -m 0600 "$out/key.pub" "$root/root/.ssh/authorized_keys"
cp "$root"/boot/vmlinuz-* "$out/vmlinuz"
cp "$root"/boot/initrd.img-* "$out/initrd.img"
rm -f "$out/root.img"
mkfs.ext4 -q -L root -d "$root" "$out/root.img" 3G
echo "$inputs" >"$out/inputs"
echo "built the fleet VM"
