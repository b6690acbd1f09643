package shared

import (
	_ "embed"
	"fmt"
	"strings"
)

// DebBlobText is the body of the named blob, "" when there is none.
func DebBlobText(blobs []debBlob, name string) string {
	for _, b := range blobs {
		if b.Name == name {
			return b.Body
		}
	}
	return ""
}

// DebBlobFuncs frame raw command output for the Debian package modules'
// scripts (apt_repository, apt_key, package_facts): _t_blob NAME FILE
// prints a "@@blob LEN NAME" line and the file's LEN bytes, which
// parseDebBlobs reads back exactly, whatever they hold. _t_x ID OK CMD
// (with SysFuncs' _t_d) runs a command and frames its return code and
// output under ID, ending the script when it failed (firewalld, npm).
//
//go:embed deb_blob_funcs.sh
var DebBlobFuncs string

// Blobs is what a script framing its output with DebBlobFuncs' _t_blob
// and _t_x reported: its key=value lines, and its blobs by name (the last of a
// name wins).
type Blobs struct {
	V     Verdict
	Blobs map[string]string
}

// ParseBlobMap reads the output of a script using DebBlobFuncs into
// Blobs.
func ParseBlobMap(stdout []byte) Blobs {
	v, list := ParseDebBlobs(string(stdout))
	h := Blobs{V: v, Blobs: make(map[string]string, len(list))}
	for _, b := range list {
		h.Blobs[b.Name] = b.Body
	}
	return h
}

// ParseDebBlobs splits a script's stdout into its key=value lines (all
// text outside the blobs) and the blobs, in the order printed.
func ParseDebBlobs(out string) (Verdict, []debBlob) {
	var head strings.Builder
	var blobs []debBlob
	const mark = "\n@@blob "
	for {
		i := strings.Index(out, mark)
		if i < 0 {
			head.WriteString(out)
			break
		}
		head.WriteString(out[:i+1])
		rest := out[i+len(mark):]
		nl := strings.IndexByte(rest, '\n')
		if nl < 0 {
			break
		}
		n, name, _ := strings.Cut(rest[:nl], " ")
		size := DebAtoi(n, -1)
		body := rest[nl+1:]
		if size < 0 || size > len(body) {
			break
		}
		blobs = append(blobs, debBlob{name, body[:size]})
		out = body[size:]
	}
	return ParseVerdict([]byte(head.String())), blobs
}

// DebBinFuncs finds tools as Ansible's get_bin_path does (PATH, then the
// sbin directories that exist) and fails as it does when one is missing.
// _t_need NAME sets _t_b to NAME's path or prints fail= and exits.
//
//go:embed deb_bin_funcs.sh
var DebBinFuncs string

// DebAtoi is s as a number, or def when it is not one.
func DebAtoi(s string, def int) int {
	var n int
	if _, err := fmt.Sscanf(strings.TrimSpace(s), "%d", &n); err != nil {
		return def
	}
	return n
}

// debBlob is one blob a script printed with _t_blob.
type debBlob struct{ Name, Body string }
