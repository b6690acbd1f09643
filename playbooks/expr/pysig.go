package expr

import (
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
)

// pySig is the Python signature of one of ansible-core's filter or test
// functions: a call that does not bind to it fails before the plugin
// runs, with Python's TypeError, whatever tender's implementation would
// make of the arguments.
type pySig struct {
	fn       string   // the function's qualified name, as Python's messages give it
	params   []string // its positional-or-keyword parameters, the filtered or tested value first
	required int      // how many of params have no default
	env      bool     // Jinja's environment comes first (counted by Python's messages, never given)
}

// bind checks a call with nargs positional arguments (the value included)
// and the keyword arguments kw against the signature, as Python binds
// them: too many positional arguments, then each keyword (unknown, or
// given twice), then the required parameters left without a value.
func (s pySig) bind(nargs int, kw map[string]any) error {
	given := nargs
	max, min := len(s.params), s.required
	if s.env {
		given, max, min = given+1, max+1, min+1
	}
	if nargs > len(s.params) {
		if min == max {
			return typeErrorf("%s() takes %d positional %s but %d %s given", s.fn, max, plural(max, "argument"), given, wereWas(given))
		}
		return typeErrorf("%s() takes from %d to %d positional arguments but %d %s given", s.fn, min, max, given, wereWas(given))
	}
	set := map[string]bool{}
	for _, k := range pydict.Keys(kw) {
		i := indexOf(s.params, k)
		switch {
		case i < 0:
			return typeErrorf("%s() got an unexpected keyword argument '%s'", s.fn, k)
		case i < nargs:
			return typeErrorf("%s() got multiple values for argument '%s'", s.fn, k)
		}
		set[k] = true
	}
	var missing []string
	for i := nargs; i < s.required; i++ {
		if !set[s.params[i]] {
			missing = append(missing, "'"+s.params[i]+"'")
		}
	}
	if len(missing) > 0 {
		list := missing[len(missing)-1]
		switch {
		case len(missing) == 2:
			list = missing[0] + " and " + list
		case len(missing) > 2:
			list = strings.Join(missing[:len(missing)-1], ", ") + ", and " + list
		}
		return typeErrorf("%s() missing %d required positional %s: %s", s.fn, len(missing), plural(len(missing), "argument"), list)
	}
	return nil
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func wereWas(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

func indexOf(l []string, s string) int {
	for i, x := range l {
		if x == s {
			return i
		}
	}
	return -1
}

// checkSignature fails a call of the filter or test (kind) called name
// that does not bind to the Python function ansible-core implements it
// with; plugins without an entry in pySigs are not checked here.
func checkSignature(kind, name string, nargs int, kw map[string]any) error {
	s, ok := pySigs[kind+" "+name]
	if !ok {
		return builtinBind(kind, name, nargs, kw)
	}
	return s.bind(nargs, kw)
}

// builtinBind checks the calls of the filters and tests ansible-core
// implements with Python's builtins, which word their errors their own
// way, and of the YAML filters, whose keywords go to PyYAML's dump_all.
func builtinBind(kind, name string, nargs int, kw map[string]any) error {
	keys := pydict.Keys(kw)
	unknown := func(allowed ...string) string {
		for _, k := range keys {
			if indexOf(allowed, k) < 0 {
				return k
			}
		}
		return ""
	}
	switch kind + " " + name {
	case "filter abs", "filter count", "filter length", "filter e", "filter escape", "filter string":
		fn := map[string]string{"abs": "abs", "count": "len", "length": "len", "e": "markupsafe._speedups.escape",
			"escape": "markupsafe._speedups.escape", "string": "markupsafe._speedups.soft_str"}[name]
		if len(keys) > 0 {
			return typeErrorf("%s() takes no keyword arguments", fn)
		}
		if nargs != 1 {
			return typeErrorf("%s() takes exactly one argument (%d given)", fn, nargs)
		}
	case "filter split":
		if k := unknown("sep", "maxsplit"); k != "" {
			return typeErrorf("'%s' is an invalid keyword argument for split()", k)
		}
		if nargs-1 > 2 {
			return typeErrorf("split() takes at most 2 arguments (%d given)", nargs-1)
		}
	case "filter permutations", "filter combinations":
		if nargs+len(keys) > 2 {
			return typeErrorf("%s() takes at most 2 arguments (%d given)", name, nargs+len(keys))
		}
		if name == "combinations" && nargs < 2 && kw["r"] == nil {
			if _, given := kw["r"]; !given {
				return typeErrorf("combinations() missing required argument 'r' (pos 2)")
			}
		}
		if k := unknown("iterable", "r"); k != "" {
			return typeErrorf("'%s' is an invalid keyword argument for %s()", k, name)
		}
	case "filter product":
		if k := unknown("repeat"); k != "" {
			return typeErrorf("'%s' is an invalid keyword argument for product()", k)
		}
	case "filter zip":
		if k := unknown("strict"); k != "" {
			return typeErrorf("'%s' is an invalid keyword argument for zip()", k)
		}
	case "filter zip_longest":
		if unknown("fillvalue") != "" {
			return typeErrorf("zip_longest() got an unexpected keyword argument")
		}
	case "test callable":
		if len(keys) > 0 {
			return typeErrorf("callable() takes no keyword arguments")
		}
		if nargs != 1 {
			return typeErrorf("callable() takes exactly one argument (%d given)", nargs)
		}
	case "test ==", "test eq", "test equalto", "test !=", "test ne", "test >", "test gt", "test greaterthan",
		"test >=", "test ge", "test <", "test lt", "test lessthan", "test <=", "test le":
		// Python's operator module, which names the function by its
		// short name.
		fn := operatorNames[name]
		if len(keys) > 0 {
			return typeErrorf("_operator.%s() takes no keyword arguments", fn)
		}
		if nargs != 2 {
			return typeErrorf("%s expected 2 arguments, got %d", fn, nargs)
		}
	case "test all", "test any":
		if len(keys) > 0 {
			return typeErrorf("%s() takes no keyword arguments", name)
		}
		if nargs != 1 {
			return typeErrorf("%s() takes exactly one argument (%d given)", name, nargs)
		}
	case "filter to_yaml", "filter to_nice_yaml":
		if k := unknown("default_style", "default_flow_style", "canonical", "indent", "width", "allow_unicode",
			"line_break", "encoding", "explicit_start", "explicit_end", "version", "tags", "sort_keys",
			"stream", "Dumper"); k != "" {
			return errorf("%s - dump_all() got an unexpected keyword argument '%s'", name, k)
		}
	}
	return nil
}

// operatorNames are the functions of Python's operator module behind
// Jinja's comparison tests.
var operatorNames = map[string]string{"==": "eq", "eq": "eq", "equalto": "eq", "!=": "ne", "ne": "ne",
	">": "gt", "gt": "gt", "greaterthan": "gt", ">=": "ge", "ge": "ge", "<": "lt", "lt": "lt", "lessthan": "lt",
	"<=": "le", "le": "le"}

// pySigs are the signatures of Jinja2's and ansible-core 2.14's builtin
// filters and tests, by kind and name. Those whose functions take *args or **kwargs
// (combine, comment, regex_search, the JSON and YAML filters) or are
// Python builtins (split, product, zip, zip_longest, permutations,
// combinations, all, any) check their own arguments.
var pySigs = map[string]pySig{
	// Jinja2 3.1's own filters (an async one's synchronous function,
	// sync_do_NAME, is the one Python's messages name)
	"filter attr":           {fn: "do_attr", params: []string{"obj", "name"}, required: 2, env: true},
	"filter batch":          {fn: "do_batch", params: []string{"value", "linecount", "fill_with"}, required: 2},
	"filter capitalize":     {fn: "do_capitalize", params: []string{"s"}, required: 1},
	"filter center":         {fn: "do_center", params: []string{"value", "width"}, required: 1},
	"filter d":              {fn: "do_default", params: []string{"value", "default_value", "boolean"}, required: 1},
	"filter default":        {fn: "do_default", params: []string{"value", "default_value", "boolean"}, required: 1},
	"filter dictsort":       {fn: "do_dictsort", params: []string{"value", "case_sensitive", "by", "reverse"}, required: 1},
	"filter filesizeformat": {fn: "do_filesizeformat", params: []string{"value", "binary"}, required: 1},
	"filter first":          {fn: "sync_do_first", params: []string{"seq"}, required: 1, env: true},
	"filter float":          {fn: "do_float", params: []string{"value", "default"}, required: 1},
	"filter forceescape":    {fn: "do_forceescape", params: []string{"value"}, required: 1},
	"filter groupby":        {fn: "sync_do_groupby", params: []string{"value", "attribute", "default", "case_sensitive"}, required: 2, env: true},
	"filter indent":         {fn: "do_indent", params: []string{"s", "width", "first", "blank"}, required: 1},
	"filter int":            {fn: "do_int", params: []string{"value", "default", "base"}, required: 1},
	"filter items":          {fn: "do_items", params: []string{"value"}, required: 1},
	"filter join":           {fn: "sync_do_join", params: []string{"value", "d", "attribute"}, required: 1, env: true},
	"filter last":           {fn: "do_last", params: []string{"seq"}, required: 1, env: true},
	"filter list":           {fn: "sync_do_list", params: []string{"value"}, required: 1},
	"filter lower":          {fn: "do_lower", params: []string{"s"}, required: 1},
	"filter max":            {fn: "do_max", params: []string{"value", "case_sensitive", "attribute"}, required: 1, env: true},
	"filter min":            {fn: "do_min", params: []string{"value", "case_sensitive", "attribute"}, required: 1, env: true},
	"filter pprint":         {fn: "do_pprint", params: []string{"value"}, required: 1},
	"filter replace":        {fn: "do_replace", params: []string{"s", "old", "new", "count"}, required: 3, env: true},
	"filter reverse":        {fn: "do_reverse", params: []string{"value"}, required: 1},
	"filter round":          {fn: "do_round", params: []string{"value", "precision", "method"}, required: 1},
	"filter safe":           {fn: "do_mark_safe", params: []string{"value"}, required: 1},
	"filter slice":          {fn: "sync_do_slice", params: []string{"value", "slices", "fill_with"}, required: 2},
	"filter sort":           {fn: "do_sort", params: []string{"value", "reverse", "case_sensitive", "attribute"}, required: 1, env: true},
	"filter striptags":      {fn: "do_striptags", params: []string{"value"}, required: 1},
	"filter sum":            {fn: "sync_do_sum", params: []string{"iterable", "attribute", "start"}, required: 1, env: true},
	"filter title":          {fn: "do_title", params: []string{"s"}, required: 1},
	"filter tojson":         {fn: "do_tojson", params: []string{"value", "indent"}, required: 1, env: true},
	"filter trim":           {fn: "do_trim", params: []string{"value", "chars"}, required: 1},
	"filter truncate":       {fn: "do_truncate", params: []string{"s", "length", "killwords", "end", "leeway"}, required: 1, env: true},
	"filter upper":          {fn: "do_upper", params: []string{"s"}, required: 1},
	"filter urlencode":      {fn: "do_urlencode", params: []string{"value"}, required: 1},
	"filter urlize":         {fn: "do_urlize", params: []string{"value", "trim_url_limit", "nofollow", "target", "rel", "extra_schemes"}, required: 1, env: true},
	"filter wordcount":      {fn: "do_wordcount", params: []string{"s"}, required: 1},
	"filter wordwrap":       {fn: "do_wordwrap", params: []string{"s", "width", "break_long_words", "wrapstring", "break_on_hyphens"}, required: 1, env: true},
	"filter xmlattr":        {fn: "do_xmlattr", params: []string{"d", "autospace"}, required: 1, env: true},
	// ansible-core's
	"filter b64decode":            {fn: "b64decode", params: []string{"string", "encoding"}, required: 1},
	"filter b64encode":            {fn: "b64encode", params: []string{"string", "encoding"}, required: 1},
	"filter basename":             {fn: "basename", params: []string{"p"}, required: 1},
	"filter bool":                 {fn: "to_bool", params: []string{"a"}, required: 1},
	"filter checksum":             {fn: "secure_hash_s", params: []string{"data", "hash_func"}, required: 1},
	"filter dict2items":           {fn: "dict_to_list_of_dict_key_value_elements", params: []string{"mydict", "key_name", "value_name"}, required: 1},
	"filter difference":           {fn: "difference", params: []string{"a", "b"}, required: 2, env: true},
	"filter dirname":              {fn: "dirname", params: []string{"p"}, required: 1},
	"filter expanduser":           {fn: "expanduser", params: []string{"path"}, required: 1},
	"filter expandvars":           {fn: "expandvars", params: []string{"path"}, required: 1},
	"filter extract":              {fn: "extract", params: []string{"item", "container", "morekeys"}, required: 2, env: true},
	"filter fileglob":             {fn: "fileglob", params: []string{"pathname"}, required: 1},
	"filter flatten":              {fn: "flatten", params: []string{"mylist", "levels", "skip_nulls"}, required: 1},
	"filter from_yaml":            {fn: "from_yaml", params: []string{"data"}, required: 1},
	"filter from_yaml_all":        {fn: "from_yaml_all", params: []string{"data"}, required: 1},
	"filter hash":                 {fn: "get_hash", params: []string{"data", "hashtype"}, required: 1},
	"filter human_readable":       {fn: "human_readable", params: []string{"size", "isbits", "unit"}, required: 1},
	"filter human_to_bytes":       {fn: "human_to_bytes", params: []string{"size", "default_unit", "isbits"}, required: 1},
	"filter intersect":            {fn: "intersect", params: []string{"a", "b"}, required: 2, env: true},
	"filter items2dict":           {fn: "list_of_dict_key_value_elements_to_dict", params: []string{"mylist", "key_name", "value_name"}, required: 1},
	"filter log":                  {fn: "logarithm", params: []string{"x", "base"}, required: 1},
	"filter mandatory":            {fn: "mandatory", params: []string{"a", "msg"}, required: 1},
	"filter md5":                  {fn: "md5s", params: []string{"data"}, required: 1},
	"filter password_hash":        {fn: "get_encrypted_password", params: []string{"password", "hashtype", "salt", "salt_size", "rounds", "ident"}, required: 1},
	"filter path_join":            {fn: "path_join", params: []string{"paths"}, required: 1},
	"filter pow":                  {fn: "power", params: []string{"x", "y"}, required: 2},
	"filter quote":                {fn: "quote", params: []string{"a"}, required: 1},
	"filter random":               {fn: "rand", params: []string{"end", "start", "step", "seed"}, required: 1, env: true},
	"filter realpath":             {fn: "realpath", params: []string{"filename"}, required: 1},
	"filter regex_escape":         {fn: "regex_escape", params: []string{"string", "re_type"}, required: 1},
	"filter regex_findall":        {fn: "regex_findall", params: []string{"value", "regex", "multiline", "ignorecase"}, required: 2},
	"filter regex_replace":        {fn: "regex_replace", params: []string{"value", "pattern", "replacement", "ignorecase", "multiline"}, required: 0},
	"filter rekey_on_member":      {fn: "rekey_on_member", params: []string{"data", "key", "duplicates"}, required: 2},
	"filter relpath":              {fn: "relpath", params: []string{"path", "start"}, required: 1},
	"filter root":                 {fn: "inversepower", params: []string{"x", "base"}, required: 1},
	"filter sha1":                 {fn: "secure_hash_s", params: []string{"data", "hash_func"}, required: 1},
	"filter shuffle":              {fn: "randomize_list", params: []string{"mylist", "seed"}, required: 1},
	"filter splitext":             {fn: "splitext", params: []string{"p"}, required: 1},
	"filter strftime":             {fn: "strftime", params: []string{"string_format", "second", "utc"}, required: 1},
	"filter subelements":          {fn: "subelements", params: []string{"obj", "subelements", "skip_missing"}, required: 2},
	"filter symmetric_difference": {fn: "symmetric_difference", params: []string{"a", "b"}, required: 2, env: true},
	"filter ternary":              {fn: "ternary", params: []string{"value", "true_val", "false_val", "none_val"}, required: 3},
	"filter to_datetime":          {fn: "to_datetime", params: []string{"string", "format"}, required: 1},
	"filter to_uuid":              {fn: "to_uuid", params: []string{"string", "namespace"}, required: 1},
	"filter type_debug":           {fn: "FilterModule.filters.<locals>.<lambda>", params: []string{"o"}, required: 1},
	"filter union":                {fn: "union", params: []string{"a", "b"}, required: 2, env: true},
	"filter unique":               {fn: "unique", params: []string{"a", "case_sensitive", "attribute"}, required: 1, env: true},
	"filter unvault":              {fn: "do_unvault", params: []string{"vault", "secret", "vaultid"}, required: 2},
	"filter urldecode":            {fn: "unquote_plus", params: []string{"string", "encoding", "errors"}, required: 1},
	"filter urlsplit":             {fn: "split_url", params: []string{"value", "query", "alias"}, required: 1},
	"filter vault":                {fn: "do_vault", params: []string{"data", "secret", "salt", "vaultid", "wrap_object"}, required: 2},
	"filter win_basename":         {fn: "basename", params: []string{"p"}, required: 1},
	"filter win_dirname":          {fn: "dirname", params: []string{"p"}, required: 1},
	"filter win_splitdrive":       {fn: "splitdrive", params: []string{"p"}, required: 1},
	"test abs":                    {fn: "isabs", params: []string{"s"}, required: 1},
	"test change":                 {fn: "changed", params: []string{"result"}, required: 1},
	"test changed":                {fn: "changed", params: []string{"result"}, required: 1},
	"test contains":               {fn: "contains", params: []string{"seq", "value"}, required: 2},
	"test directory":              {fn: "isdir", params: []string{"s"}, required: 1},
	"test exists":                 {fn: "exists", params: []string{"path"}, required: 1},
	"test failed":                 {fn: "failed", params: []string{"result"}, required: 1},
	"test failure":                {fn: "failed", params: []string{"result"}, required: 1},
	"test falsy":                  {fn: "falsy", params: []string{"value", "convert_bool"}, required: 1},
	"test file":                   {fn: "isfile", params: []string{"path"}, required: 1},
	"test finished":               {fn: "finished", params: []string{"result"}, required: 1},
	"test is_abs":                 {fn: "isabs", params: []string{"s"}, required: 1},
	"test is_dir":                 {fn: "isdir", params: []string{"s"}, required: 1},
	"test is_file":                {fn: "isfile", params: []string{"path"}, required: 1},
	"test is_link":                {fn: "islink", params: []string{"path"}, required: 1},
	"test is_mount":               {fn: "ismount", params: []string{"path"}, required: 1},
	"test is_same_file":           {fn: "samefile", params: []string{"f1", "f2"}, required: 2},
	"test isnan":                  {fn: "isnotanumber", params: []string{"x"}, required: 1},
	"test issubset":               {fn: "issubset", params: []string{"a", "b"}, required: 2},
	"test issuperset":             {fn: "issuperset", params: []string{"a", "b"}, required: 2},
	"test link":                   {fn: "islink", params: []string{"path"}, required: 1},
	"test link_exists":            {fn: "lexists", params: []string{"path"}, required: 1},
	"test match":                  {fn: "match", params: []string{"value", "pattern", "ignorecase", "multiline"}, required: 1},
	"test mount":                  {fn: "ismount", params: []string{"path"}, required: 1},
	"test nan":                    {fn: "isnotanumber", params: []string{"x"}, required: 1},
	"test reachable":              {fn: "reachable", params: []string{"result"}, required: 1},
	"test regex":                  {fn: "regex", params: []string{"value", "pattern", "ignorecase", "multiline", "match_type"}, required: 0},
	"test same_file":              {fn: "samefile", params: []string{"f1", "f2"}, required: 2},
	"test search":                 {fn: "search", params: []string{"value", "pattern", "ignorecase", "multiline"}, required: 1},
	"test skip":                   {fn: "skipped", params: []string{"result"}, required: 1},
	"test skipped":                {fn: "skipped", params: []string{"result"}, required: 1},
	"test started":                {fn: "started", params: []string{"result"}, required: 1},
	"test subset":                 {fn: "issubset", params: []string{"a", "b"}, required: 2},
	"test succeeded":              {fn: "success", params: []string{"result"}, required: 1},
	"test success":                {fn: "success", params: []string{"result"}, required: 1},
	"test successful":             {fn: "success", params: []string{"result"}, required: 1},
	"test superset":               {fn: "issuperset", params: []string{"a", "b"}, required: 2},
	"test truthy":                 {fn: "truthy", params: []string{"value", "convert_bool"}, required: 1},
	"test unreachable":            {fn: "unreachable", params: []string{"result"}, required: 1},
	"test uri":                    {fn: "is_uri", params: []string{"value", "schemes"}, required: 1},
	"test url":                    {fn: "is_url", params: []string{"value", "schemes"}, required: 1},
	"test urn":                    {fn: "is_urn", params: []string{"value"}, required: 1},
	"test vault_encrypted":        {fn: "vault_encrypted", params: []string{"value"}, required: 1},
	"test version":                {fn: "version_compare", params: []string{"value", "version", "operator", "strict", "version_type"}, required: 2},
	"test version_compare":        {fn: "version_compare", params: []string{"value", "version", "operator", "strict", "version_type"}, required: 2},

	// Jinja's own tests (jinja2/tests.py).
	"test odd":         {fn: "test_odd", params: []string{"value"}, required: 1},
	"test even":        {fn: "test_even", params: []string{"value"}, required: 1},
	"test defined":     {fn: "test_defined", params: []string{"value"}, required: 1},
	"test undefined":   {fn: "test_undefined", params: []string{"value"}, required: 1},
	"test none":        {fn: "test_none", params: []string{"value"}, required: 1},
	"test boolean":     {fn: "test_boolean", params: []string{"value"}, required: 1},
	"test false":       {fn: "test_false", params: []string{"value"}, required: 1},
	"test true":        {fn: "test_true", params: []string{"value"}, required: 1},
	"test integer":     {fn: "test_integer", params: []string{"value"}, required: 1},
	"test float":       {fn: "test_float", params: []string{"value"}, required: 1},
	"test lower":       {fn: "test_lower", params: []string{"value"}, required: 1},
	"test upper":       {fn: "test_upper", params: []string{"value"}, required: 1},
	"test string":      {fn: "test_string", params: []string{"value"}, required: 1},
	"test mapping":     {fn: "test_mapping", params: []string{"value"}, required: 1},
	"test number":      {fn: "test_number", params: []string{"value"}, required: 1},
	"test sequence":    {fn: "test_sequence", params: []string{"value"}, required: 1},
	"test iterable":    {fn: "test_iterable", params: []string{"value"}, required: 1},
	"test escaped":     {fn: "test_escaped", params: []string{"value"}, required: 1},
	"test divisibleby": {fn: "test_divisibleby", params: []string{"value", "num"}, required: 2},
	"test sameas":      {fn: "test_sameas", params: []string{"value", "other"}, required: 2},
	"test in":          {fn: "test_in", params: []string{"value", "seq"}, required: 2},
	"test filter":      {fn: "test_filter", params: []string{"value"}, required: 1, env: true},
	"test test":        {fn: "test_test", params: []string{"value"}, required: 1, env: true},
}
