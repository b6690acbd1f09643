package facts

import (
	"reflect"
	"testing"
)

func TestDevices(t *testing.T) {
	f := parseLines(t, "p|/sys/block|", "p|/dev/disk/by-uuid|", "b|lspci|/usr/bin/lspci",
		"o|blk|sda", "a|device/vendor|ATA     ", "a|device/model|Samsung SSD", "a|removable|0", "a|queue/rotational|0",
		"a|queue/scheduler|[mq-deadline] kyber bfq none", "a|size|1000215216", "a|queue/logical_block_size|512",
		"a|queue/discard_granularity|512",
		"o|part|sda1", "a|start|2048", "a|size|1048576",
		"o|part|sda2", "a|start|1050624", "a|size|999162544", "a|holder|cryptroot",
		"o|blk|dm-0", "a|size|999129776", "a|holder|vg0-root",
		"o|blk|loop0", "a|nolink|1", "a|size|0",
		"f|slaves|/sys/block/dm-0/slaves/sda2",
		"f|ls|lrwxrwxrwx 1 root root 9 Jan  1 00:00 /dev/disk/by-id/wwn-0x5002538e40a1b2c3 -> ../../sda",
		"f|ls|lrwxrwxrwx 1 root root 9 Jan  1 00:00 /dev/disk/by-id/ata-Samsung_SSD_S1 -> ../../sda",
		"f|ls|lrwxrwxrwx 1 root root 10 Jan  1 00:00 /dev/disk/by-uuid/1234-ABCD -> ../../sda1",
		"f|ls|lrwxrwxrwx 1 root root 10 Jan  1 00:00 /dev/disk/by-label/EFI -> ../../sda1",
		"f|ls|lrwxrwxrwx 1 root root 0 Jan  1 00:00 /sys/block/sda -> ../devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/sda",
		"f|lspci|0000:00:17.0 SATA controller: Intel Corporation Cannon Lake PCH SATA AHCI Controller (rev 10)")
	devs := f["devices"].(map[string]any)
	sda := devs["sda"].(map[string]any)
	for k, w := range map[string]any{"vendor": "ATA", "model": "Samsung SSD", "sas_address": nil, "removable": "0",
		"rotational": "0", "scheduler_mode": "mq-deadline", "sectors": "1000215216", "sectorsize": "512",
		"size": "476.94 GB", "support_discard": "512", "wwn": "0x5002538e40a1b2c3", "virtual": 1, "holders": []any{},
		"host":  "SATA controller: Intel Corporation Cannon Lake PCH SATA AHCI Controller (rev 10)",
		"links": map[string]any{"ids": []any{"ata-Samsung_SSD_S1", "wwn-0x5002538e40a1b2c3"}, "uuids": []any{}, "labels": []any{}, "masters": []any{}}} {
		if !reflect.DeepEqual(sda[k], w) {
			t.Errorf("sda.%s = %#v, want %#v", k, sda[k], w)
		}
	}
	parts := sda["partitions"].(map[string]any)
	sda1 := map[string]any{"start": "2048", "sectors": "1048576", "sectorsize": 512, "size": "512.00 MB", "uuid": "1234-ABCD",
		"holders": []any{}, "links": map[string]any{"ids": []any{}, "uuids": []any{"1234-ABCD"}, "labels": []any{"EFI"}, "masters": []any{}}}
	if !reflect.DeepEqual(parts["sda1"], sda1) {
		t.Errorf("sda1 = %v", parts["sda1"])
	}
	if p := parts["sda2"].(map[string]any); p["uuid"] != nil || !reflect.DeepEqual(p["holders"], []any{"cryptroot"}) ||
		!reflect.DeepEqual(p["links"].(map[string]any)["masters"], []any{"dm-0"}) {
		t.Errorf("sda2 = %v", p)
	}
	if dm := devs["dm-0"].(map[string]any); dm["host"] != "" || dm["sectorsize"] != 512 || !reflect.DeepEqual(dm["holders"], []any{"vg0-root"}) {
		t.Errorf("dm-0 = %v", dm)
	}
	if loop := devs["loop0"].(map[string]any); loop["virtual"] != 1 || loop["size"] != "0.00 Bytes" || loop["scheduler_mode"] != "" {
		t.Errorf("loop0 = %v", loop)
	}
	links := f["device_links"].(map[string]any)
	if !reflect.DeepEqual(links["masters"], map[string]any{"sda2": []any{"dm-0"}}) || !reflect.DeepEqual(links["labels"], map[string]any{"sda1": []any{"EFI"}}) {
		t.Errorf("device_links = %v", links)
	}
	// Without /sys/block there are no devices and no device links.
	if f := parseLines(t); !reflect.DeepEqual(f["devices"], map[string]any{}) || f["device_links"] != nil {
		t.Errorf("no /sys/block: %v %v", f["devices"], f["device_links"])
	}
}

func TestBytesToHuman(t *testing.T) {
	for in, want := range map[float64]string{0: "0.00 Bytes", 512: "512.00 Bytes", 1024: "1.00 KB", 1536 * 1024: "1.50 MB",
		274877906944: "256.00 GB", 1 << 50: "1.00 PB", 1.5 * (1 << 60): "1.50 EB"} {
		if got := bytesToHuman(in); got != want {
			t.Errorf("bytesToHuman(%v) = %q, want %q", in, got, want)
		}
	}
}

func TestMounts(t *testing.T) {
	f := parseLines(t, "b|findmnt|/bin/findmnt",
		`f|mtab|/dev/sda2 / ext4 rw,relatime 0 0`,
		`f|mtab|proc /proc proc rw 0 0`,
		`f|mtab|/dev/sda1 /mnt/my\040disk vfat rw 0 0`,
		`f|mtab|/dev/sda2 /srv ext4 rw 0 0`,
		`f|mtab|nas:/export /nfs nfs4 rw 0 0`,
		`f|mtab|/dev/sdb1 /dup ext4 ro 0 0`,
		`f|mtab|/dev/sdb2 /dup ext4 rw 0 0`,
		`f|mtab|/dev/sdc1 /none none rw 0 0`,
		"f|binds|/srv",
		"s|4096 4096 1000 250 100 40|ext2/ext3|/",
		"s|512 4096 2000 1000 0 0|msdos|/mnt/my disk",
		"f|lsblk|/dev/sda1 1234-ABCD", "f|lsblk|/dev/sda2 0aa1-uuid", "f|lsblk|/dev/sdb")
	ms := f["mounts"].([]any)
	var mounts []string
	for _, m := range ms {
		mounts = append(mounts, m.(map[string]any)["mount"].(string))
	}
	if want := []string{"/", "/mnt/my disk", "/srv", "/nfs", "/dup"}; !reflect.DeepEqual(mounts, want) {
		t.Fatalf("mounts %v, want %v", mounts, want)
	}
	root := ms[0].(map[string]any)
	want := map[string]any{"mount": "/", "device": "/dev/sda2", "fstype": "ext4", "options": "rw,relatime", "uuid": "0aa1-uuid",
		"size_total": int(4096000), "size_available": int(1024000), "block_size": int(4096), "block_total": int(1000),
		"block_available": int(250), "block_used": int(750), "inode_total": int(100), "inode_available": int(40), "inode_used": int(60)}
	if !reflect.DeepEqual(root, want) {
		t.Errorf("/ = %v", root)
	}
	if m := ms[1].(map[string]any); m["uuid"] != "1234-ABCD" || m["size_total"] != int(1024000) || m["block_size"] != int(4096) {
		t.Errorf("escaped mount point: %v", m)
	}
	if m := ms[2].(map[string]any); m["options"] != "rw,bind" || m["uuid"] != "0aa1-uuid" || m["size_total"] != nil {
		t.Errorf("bind mount: %v", m)
	}
	if m := ms[4].(map[string]any); m["options"] != "rw" || m["device"] != "/dev/sdb2" || m["uuid"] != "N/A" {
		t.Errorf("a mount point listed twice keeps its last entry: %v", m)
	}
	// stat ran out of time: the mount points it did not reach get a note.
	f = parseLines(t, "f|mtab|/dev/sda2 / ext4 rw 0 0", "f|mtab|nas:/x /nfs nfs rw 0 0", "v|stat_rc|124", "s|4096 4096 1 1 1 1|ext2/ext3|/")
	if m := f["mounts"].([]any)[1].(map[string]any); m["note"] != "Could not get extra information due to timeout" || m["uuid"] != nil {
		t.Errorf("timed out: %v", m)
	}
	// Without findmnt Ansible cannot tell bind mounts.
	f = parseLines(t, "f|mtab|/dev/sda2 /srv ext4 rw 0 0", "f|binds|/srv")
	if m := f["mounts"].([]any)[0].(map[string]any); m["options"] != "rw" {
		t.Errorf("no findmnt: %v", m)
	}
}
