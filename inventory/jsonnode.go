package inventory

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// jsonNode parses src as JSON (as Ansible's loader tries json.loads before
// YAML) into the yaml.Node tree the YAML path would produce, keeping key
// order and approximate positions. ok is false when src is not JSON.
func jsonNode(src []byte) (node *yaml.Node, ok bool) {
	trimmed := bytes.TrimSpace(src)
	if len(trimmed) == 0 || (trimmed[0] != '{' && trimmed[0] != '[') {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	n, err := jsonValue(dec, src, 0)
	if err != nil {
		return nil, false
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, false
	}
	return n, true
}

func jsonPos(src []byte, off int64) (line, col int) {
	before := src[:min(int(off), len(src))]
	line = bytes.Count(before, []byte("\n")) + 1
	col = len(before) - bytes.LastIndexByte(before, '\n')
	return line, col
}

func jsonValue(dec *json.Decoder, src []byte, depth int) (*yaml.Node, error) {
	if depth > maxNesting*50 {
		return nil, errors.New("JSON nesting too deep")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	line, col := jsonPos(src, dec.InputOffset())
	n := &yaml.Node{Line: line, Column: col}
	tagged := func(tag, value string) *yaml.Node {
		n.Kind, n.Tag, n.Value, n.Style = yaml.ScalarNode, tag, value, yaml.TaggedStyle
		return n
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n.Kind, n.Tag = yaml.MappingNode, "!!map"
			for dec.More() {
				k, err := jsonValue(dec, src, depth+1)
				if err != nil {
					return nil, err
				}
				v, err := jsonValue(dec, src, depth+1)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, k, v)
			}
		case '[':
			n.Kind, n.Tag = yaml.SequenceNode, "!!seq"
			for dec.More() {
				v, err := jsonValue(dec, src, depth+1)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, v)
			}
		default:
			return nil, errors.New("unexpected delimiter")
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
		return n, nil
	case string:
		return tagged("!!str", t), nil
	case bool:
		return tagged("!!bool", strconv.FormatBool(t)), nil
	case nil:
		return tagged("!!null", "null"), nil
	case json.Number:
		s := t.String()
		if !strings.ContainsAny(s, ".eE") {
			return tagged("!!int", s), nil
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, err
		}
		fs := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(fs, ".") {
			fs += ".0"
		}
		return tagged("!!float", fs), nil
	}
	return nil, errors.New("unexpected JSON token")
}
