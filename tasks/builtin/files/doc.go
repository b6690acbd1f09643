// Package files manages files on a host: copy, file, stat, lineinfile,
// blockinfile, replace, ini_file, template, tempfile, find, assemble,
// fetch, slurp, unarchive and selinux. Register adds them to a registry;
// builtin.Registry is the one place that gathers every family.
package files
