package shared

import (
	"bytes"
	_ "embed"
	"strconv"
)

// BlobFuncs are sh helpers for scripts that return the raw output of
// the commands they ran: _t_blob NAME FILE prints a "--blob NAME LEN--"
// line and the file's LEN bytes, which parseBlobs reads back exactly,
// whatever they hold. _t_bin finds a tool as Ansible's get_bin_path does:
// on PATH, then in /sbin, /usr/sbin and /usr/local/sbin.
//
//go:embed blob_funcs.sh
var BlobFuncs string

// ParseBlobs splits a script's stdout into its key=value lines (all text
// outside the blobs) and the blobs _t_blob printed, by name.
func ParseBlobs(out []byte) (Verdict, map[string]string) {
	blobs := map[string]string{}
	var head bytes.Buffer
	mark := []byte("\n--blob ")
	for {
		i := bytes.Index(out, mark)
		if i < 0 {
			head.Write(out)
			break
		}
		head.Write(out[:i+1])
		rest := out[i+len(mark):]
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 || !bytes.HasSuffix(rest[:nl], []byte("--")) {
			head.Write(rest)
			break
		}
		hdr := string(rest[:nl-2])
		sp := bytes.LastIndexByte([]byte(hdr), ' ')
		n, err := strconv.Atoi(hdr[sp+1:])
		body := rest[nl+1:]
		if sp < 0 || err != nil || n > len(body) {
			head.Write(rest)
			break
		}
		blobs[hdr[:sp]] = string(body[:n])
		out = body[n:]
	}
	return ParseVerdict(head.Bytes()), blobs
}
