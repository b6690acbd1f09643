package system

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// partedUnitsSI and partedUnitsIEC are the size units the module knows,
// in increasing powers of 1000 and 1024.
var (
	partedUnitsSI  = []string{"B", "KB", "MB", "GB", "TB"}
	partedUnitsIEC = []string{"KiB", "MiB", "GiB", "TiB"}
)

// partedUnits are the units a size, part_start or part_end may carry and
// the choices of unit.
var partedUnits = append(append(append([]string{}, partedUnitsSI...), partedUnitsIEC...), "s", "%", "cyl", "chs", "compact")

// partedSizeRe matches a number and its optional unit; partedCHSRe a
// cylinder,head,sector triple.
var (
	partedSizeRe = regexp.MustCompile(`^(-?[\d.]+) *([\w%]+)?$`)
	partedCHSRe  = regexp.MustCompile(`^(\d+),(\d+),(\d+)$`)
)

// partedFloat converts text as Python's float() does for the module's
// sizes, failing with Python's message.
func partedFloat(s string) (float64, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("could not convert string to float: '%s'", s)
	}
	return f, nil
}

// partedParseUnit splits a size such as "10.5MiB" into its number and
// unit (unit when it has none). A cylinder,head,sector triple gives a
// map and the unit "chs". Text of neither form fails as the module does.
func partedParseUnit(s, unit string) (any, string, error) {
	if m := partedSizeRe.FindStringSubmatch(s); m != nil {
		if m[2] != "" {
			unit = m[2]
		}
		f, err := partedFloat(m[1])
		return f, unit, err
	}
	m := partedCHSRe.FindStringSubmatch(s)
	if m == nil {
		return nil, "", fmt.Errorf("Error interpreting parted size output: '%s'", s)
	}
	c, _ := strconv.Atoi(m[1])
	h, _ := strconv.Atoi(m[2])
	sec, _ := strconv.Atoi(m[3])
	return map[string]any{"cylinder": c, "head": h, "sector": sec}, "chs", nil
}

// partedSizeOK reports whether a part_start or part_end has a unit the
// module knows; it also gives the parsed pair for the failure's err.
func partedSizeOK(s string) (bool, []any, error) {
	size, unit, err := partedParseUnit(s, "")
	if err != nil {
		return false, nil, err
	}
	for _, u := range partedUnits {
		if u == unit {
			return true, nil, nil
		}
	}
	return false, []any{size, unit}, nil
}

// partedInfo is a device as parted's machine output describes it: the
// returned disk and partitions.
type partedInfo struct {
	disk  map[string]any
	parts []map[string]any
}

// partedAtoi converts a field as Python's int() does.
func partedAtoi(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("invalid literal for int() with base 10: '%s'", s)
	}
	return n, nil
}

// partedField returns field i of a split line, failing as Python's
// indexing does when the line is shorter.
func partedField(f []string, i int) (string, error) {
	if i >= len(f) {
		return "", fmt.Errorf("list index out of range")
	}
	return f[i], nil
}

// partedParseInfo reads `parted -m ... unit U print` output: the unit
// line, the disk line, the geometry line in cyl and chs units, then one
// line per partition.
func partedParseInfo(out, unit string) (*partedInfo, error) {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) < 2 {
		return nil, fmt.Errorf("list index out of range")
	}
	g := strings.Split(strings.TrimRight(lines[1], ";"), ":")
	var fields [7]string
	for i := range fields {
		v, err := partedField(g, i)
		if err != nil {
			return nil, err
		}
		fields[i] = v
	}
	size, unit, err := partedParseUnit(fields[1], unit)
	if err != nil {
		return nil, err
	}
	lb, err := partedAtoi(fields[3])
	if err != nil {
		return nil, err
	}
	pb, err := partedAtoi(fields[4])
	if err != nil {
		return nil, err
	}
	disk := map[string]any{"dev": fields[0], "size": size, "unit": strings.ToLower(unit), "table": fields[5],
		"model": fields[6], "logical_block": lb, "physical_block": pb}
	if unit == "cyl" || unit == "chs" {
		if len(lines) < 3 {
			return nil, fmt.Errorf("list index out of range")
		}
		chs, err := partedCHSInfo(lines[2])
		if err != nil {
			return nil, err
		}
		disk["chs_info"] = chs
		lines = lines[1:]
	}
	info := &partedInfo{disk: disk, parts: []map[string]any{}}
	for _, l := range lines[2:] {
		p, err := partedPart(strings.Split(strings.TrimRight(l, ";"), ":"), unit)
		if err != nil {
			return nil, err
		}
		info.parts = append(info.parts, p)
	}
	return info, nil
}

// partedCHSInfo reads the geometry line: cylinders, heads, sectors and
// the cylinder's size.
func partedCHSInfo(line string) (map[string]any, error) {
	f := strings.Split(strings.TrimRight(line, ";"), ":")
	var n [3]int
	for i := range n {
		s, err := partedField(f, i)
		if err != nil {
			return nil, err
		}
		if n[i], err = partedAtoi(s); err != nil {
			return nil, err
		}
	}
	s, err := partedField(f, 3)
	if err != nil {
		return nil, err
	}
	size, unit, err := partedParseUnit(s, "")
	if err != nil {
		return nil, err
	}
	return map[string]any{"cylinders": n[0], "heads": n[1], "sectors": n[2], "cyl_size": size,
		"cyl_size_unit": strings.ToLower(unit)}, nil
}

// partedPart reads one partition line: number, begin, end, size (not in
// chs), file system, name and flags.
func partedPart(f []string, unit string) (map[string]any, error) {
	var err error
	get := func(i int) string {
		if err != nil {
			return ""
		}
		var s string
		s, err = partedField(f, i)
		return s
	}
	var size any = ""
	var fstype, name, flags string
	if unit != "chs" {
		s := get(3)
		if err == nil {
			size, _, err = partedParseUnit(s, "")
		}
		fstype, name, flags = get(4), get(5), get(6)
	} else {
		fstype, name, flags = get(3), get(4), get(5)
	}
	num, begin, end := get(0), get(1), get(2)
	if err != nil {
		return nil, err
	}
	n, err := partedAtoi(num)
	if err != nil {
		return nil, err
	}
	b, _, err := partedParseUnit(begin, "")
	if err != nil {
		return nil, err
	}
	e, _, err := partedParseUnit(end, "")
	if err != nil {
		return nil, err
	}
	fl := []any{}
	for _, x := range strings.Split(flags, ", ") {
		if x != "" {
			fl = append(fl, strings.TrimSpace(x))
		}
	}
	return map[string]any{"num": n, "begin": b, "end": e, "size": size, "fstype": fstype, "name": name,
		"flags": fl, "unit": strings.ToLower(unit)}, nil
}

// partedIndex returns where s is in list, -1 when absent.
func partedIndex(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// partedToBytes converts a size in unit to bytes as the module does to
// compare a partition's end with part_end: KiB and up are powers of 1024,
// KB and up of 1000, compact (and cyl, chs, none) counts as MB, any other
// unit (s, %) as bytes.
func partedToBytes(size float64, unit string) int64 {
	mult := 1.0
	pow := func(b float64, n int) float64 {
		r := 1.0
		for ; n > 0; n-- {
			r *= b
		}
		return r
	}
	if i := partedIndex(partedUnitsSI, unit); i >= 0 {
		mult = pow(1000, i)
	} else if i := partedIndex(partedUnitsIEC, unit); i >= 0 {
		mult = pow(1024, i+1)
	} else if unit == "" || unit == "compact" || unit == "cyl" || unit == "chs" {
		mult = 1000 * 1000
	}
	return int64(size * mult)
}

// partedFlagsScript gives the set commands turning the partition's
// flags (have) into want: want's missing ones on, then have's unwanted
// ones off. Asking for esp asks for boot too, which parted ties to it.
func partedFlagsScript(number int, want []string, have []any) string {
	if partedIndex(want, "esp") >= 0 && partedIndex(want, "boot") < 0 {
		want = append(append([]string{}, want...), "boot")
	}
	var hs []string
	for _, h := range have {
		hs = append(hs, fmt.Sprint(h))
	}
	var b strings.Builder
	seen := map[string]bool{}
	for _, f := range want {
		if partedIndex(hs, f) < 0 && !seen[f] {
			seen[f] = true
			fmt.Fprintf(&b, "set %d %s on ", number, f)
		}
	}
	for _, f := range hs {
		if partedIndex(want, f) < 0 && !seen["-"+f] {
			seen["-"+f] = true
			fmt.Fprintf(&b, "set %d %s off ", number, f)
		}
	}
	return b.String()
}
