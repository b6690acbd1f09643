package shared

import _ "embed"

// CopyScript copies one file to $dest in one round trip. Its inputs are
// shell variables set before it (all quoted by the module):
//
//	dest     destination; ending in / or naming a directory, the file goes
//	         inside as $base
//	base     the source's base name ("" for content: a directory dest fails)
//	want     the new content's sha1 ("" with remote_src: computed from $source)
//	source   "-": the content is on stdin; otherwise a path on the host
//	remote   non-empty for remote_src: $source is the user's file, kept
//	moved    non-empty: $source is our upload, moved into place
//	probe    non-empty: stop with verdict=upload when the content differs
//	mkdirs   non-empty: create dest's missing parent directories
//	follow   non-empty: a link at dest is kept and its target written
//	force, backup, validate ("" or a command using "$tmp"), mode, owner,
//	group, and _t_check for check mode.
//
// It prints key=value lines: dest, verdict (noforce, upload, invalid,
// done), content_changed, backup_file, src, the attribute changes of
// _t_attrs, changed, the _t_info of the result, checksum and md5sum;
// then, for verdict=invalid, the validator's rc and output after
// "--stdout--" and "--stderr--" lines; with diff, the old content after a
// "--before--" line.
var CopyScript = remoteTreeFunc + PrepareFunc + copyScriptBody

//go:embed copy.sh
var copyScriptBody string
