#!/bin/sh
# run-vm.sh DIR boots a fresh copy of the fleet VM (build-vm.sh) under
# qemu, its disk a copy-on-write overlay in DIR with two empty 1 GiB
# disks beside it (/dev/vdb and /dev/vdc on the VM), sshd forwarded to a
# free 127.0.0.1 port; it prints the port once root can log in with
# e2e/.fleet/vm/key. qemu's pid is in DIR/pid: kill it to stop the VM.
# TENDER_VM_APPEND adds to the kernel's command line (security=selinux
# boots it with SELinux, permissive).
#
# The VM is emulated (qemu's tcg): nested KVM is not dependable on the
# machines the tests run on. It boots in under a minute.
set -eu
dir=$1
here=$(cd "$(dirname "$0")" && pwd)
vm="$here/../.fleet/vm"
mkdir -p "$dir"
qemu-img create -q -f qcow2 -F raw -b "$vm/root.img" "$dir/root.qcow2"
qemu-img create -q -f raw "$dir/disk1.img" 1G
qemu-img create -q -f raw "$dir/disk2.img" 1G
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
qemu-system-x86_64 -accel tcg -m 1024 -smp 2 -display none -daemonize -pidfile "$dir/pid" \
	-serial "file:$dir/console.log" -no-reboot \
	-kernel "$vm/vmlinuz" -initrd "$vm/initrd.img" -append "root=/dev/vda rw console=ttyS0${TENDER_VM_APPEND:+ $TENDER_VM_APPEND}" \
	-drive "file=$dir/root.qcow2,if=virtio" \
	-drive "file=$dir/disk1.img,if=virtio,format=raw" -drive "file=$dir/disk2.img,if=virtio,format=raw" \
	-nic "user,model=virtio-net-pci,hostfwd=tcp:127.0.0.1:$port-:22"
i=0
until ssh -q -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o ConnectTimeout=5 \
	-i "$vm/key" -p "$port" root@127.0.0.1 true 2>/dev/null; do
	i=$((i + 1))
	if [ $i -ge 100 ]; then
		echo "the fleet VM did not answer on port $port; its console:" >&2
		tail -20 "$dir/console.log" >&2
		exit 1
	fi
	sleep 3
done
echo "$port"
