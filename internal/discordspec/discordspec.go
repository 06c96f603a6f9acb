// Package discordspec checks the bot's REST requests against Discord's
// own description of its API: the OpenAPI document Discord publishes for
// API v10 (the discord/discord-api-spec repository, MIT licence: LICENSE).
// spec.json is the part of it the bot needs, the request bodies of the
// routes it calls and the schemas they refer to, made by the extract
// command (see its doc). Where internal/fakediscord is our reading of
// Discord's documentation, this is Discord's word: the end-to-end tests
// check every request the bot sends through the fake against it.
package discordspec

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed spec.json
var specJSON []byte

// Checker checks request bodies; it is safe for concurrent use.
type Checker struct {
	version int
	routes  []route
}

type route struct {
	method, path string
	match        *regexp.Regexp
	required     bool
	json, multi  *jsonschema.Schema // nil: no such body
	hasBody      bool
}

var (
	once    sync.Once
	shared  *Checker
	loadErr error
)

// Load returns the checker of the embedded description (compiled once).
func Load() (*Checker, error) {
	once.Do(func() { shared, loadErr = compile(specJSON) })
	return shared, loadErr
}

func compile(raw []byte) (*Checker, error) {
	var doc struct {
		Version string `json:"version"`
		Routes  []struct {
			Method    string          `json:"method"`
			Path      string          `json:"path"`
			JSON      json.RawMessage `json:"json"`
			Multipart json.RawMessage `json:"multipart"`
			Required  bool            `json:"required"`
		} `json:"routes"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("discordspec: %w", err)
	}
	v, err := strconv.Atoi(doc.Version)
	if err != nil {
		return nil, fmt.Errorf("discordspec: version %q: %w", doc.Version, err)
	}
	whole, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("discordspec: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020) // OpenAPI 3.1's dialect
	const url = "urn:discordspec"
	if err := c.AddResource(url, whole); err != nil {
		return nil, fmt.Errorf("discordspec: %w", err)
	}
	ck := &Checker{version: v}
	for k, r := range doc.Routes {
		rt := route{method: r.Method, path: r.Path, required: r.Required, match: pathPattern(r.Path)}
		for _, body := range []struct {
			raw json.RawMessage
			key string
			to  **jsonschema.Schema
		}{{r.JSON, "json", &rt.json}, {r.Multipart, "multipart", &rt.multi}} {
			if len(body.raw) == 0 {
				continue
			}
			rt.hasBody = true
			s, err := c.Compile(fmt.Sprintf("%s#/routes/%d/%s", url, k, body.key))
			if err != nil {
				return nil, fmt.Errorf("discordspec: %s %s: %w", r.Method, r.Path, err)
			}
			*body.to = s
		}
		ck.routes = append(ck.routes, rt)
	}
	return ck, nil
}

// pathPattern matches the paths of an OpenAPI path ("{name}": any one
// segment).
func pathPattern(p string) *regexp.Regexp {
	segs := strings.Split(p, "/")
	for k, s := range segs {
		if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
			segs[k] = `[^/]+`
		} else {
			segs[k] = regexp.QuoteMeta(s)
		}
	}
	return regexp.MustCompile("^" + strings.Join(segs, "/") + "$")
}

// Version is the API version the description is of.
func (c *Checker) Version() int { return c.version }

// Check reports why Discord would refuse a request, or nil: method, path
// relative to the API root ("/channels/1/messages"), whether the body was
// multipart (payload is then its payload_json part) and the JSON payload
// (nil for none). A route the description leaves out is an error too, so
// that a new route is added to spec.json (extract) before the bot uses it.
func (c *Checker) Check(method, path string, multipart bool, payload []byte) error {
	rt := c.find(method, path)
	if rt == nil {
		return fmt.Errorf("%s %s: not a route the bot is known to call (add it to discordspec's extract)", method, path)
	}
	if len(bytes.TrimSpace(payload)) == 0 {
		if rt.required {
			return fmt.Errorf("%s %s: a body is required", method, rt.path)
		}
		return nil
	}
	if !rt.hasBody {
		return fmt.Errorf("%s %s: takes no body", method, rt.path)
	}
	s := rt.json
	if multipart && rt.multi != nil {
		s = rt.multi
	}
	if s == nil {
		return fmt.Errorf("%s %s: no JSON body", method, rt.path)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(payload))
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, rt.path, err)
	}
	if err := s.Validate(inst); err != nil {
		return fmt.Errorf("%s %s: %s", method, rt.path, clip(err.Error()))
	}
	return nil
}

// find is the route of the description a request is for; a literal
// segment wins over a parameter (".../messages/@original").
func (c *Checker) find(method, path string) *route {
	var best *route
	for k := range c.routes {
		rt := &c.routes[k]
		if rt.method != method || !rt.match.MatchString(path) {
			continue
		}
		if best == nil || strings.Count(rt.path, "{") < strings.Count(best.path, "{") {
			best = rt
		}
	}
	return best
}

// clip keeps a validation error readable (it may quote the whole body).
func clip(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "…"
	}
	return s
}
