//go:build windows

package main

// raiseNoFile has nothing to raise: Windows sets no such limit.
func raiseNoFile(uint64) (string, error) { return "", nil }
