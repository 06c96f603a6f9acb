// Command extract writes the part of Discord's OpenAPI description that
// package discordspec checks requests against: the request bodies of the
// REST routes the bot calls, and every schema they refer to.
//
//	go run ./internal/discordspec/extract path/to/openapi.json > internal/discordspec/spec.json
//
// openapi.json is specs/openapi.json of Discord's public repository
// discord/discord-api-spec (MIT licence, kept as LICENSE beside spec.json).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// routes are the routes the bot calls (method and OpenAPI path); a route
// the bot starts to call is added here and the file extracted again.
var routes = [][2]string{
	{"GET", "/gateway"},
	{"GET", "/gateway/bot"},
	{"GET", "/users/@me"},
	{"GET", "/applications/@me"},
	{"GET", "/oauth2/applications/@me"},
	{"POST", "/users/@me/channels"},
	{"PUT", "/applications/{application_id}/commands"},
	{"PUT", "/applications/{application_id}/guilds/{guild_id}/commands"},
	{"POST", "/interactions/{interaction_id}/{interaction_token}/callback"},
	{"POST", "/webhooks/{webhook_id}/{webhook_token}"},
	{"PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"},
	{"PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"},
	{"GET", "/channels/{channel_id}"},
	{"GET", "/channels/{channel_id}/messages"},
	{"POST", "/channels/{channel_id}/messages"},
	{"PATCH", "/channels/{channel_id}/messages/{message_id}"},
	{"DELETE", "/channels/{channel_id}/messages/{message_id}"},
	{"GET", "/guilds/{guild_id}"},
	{"GET", "/guilds/{guild_id}/channels"},
	{"GET", "/guilds/{guild_id}/roles"},
	{"GET", "/guilds/{guild_id}/members/{user_id}"},
}

// Route is one route of spec.json: its request body's schemas by
// content type ("json", "multipart"), none for a route without a body.
type Route struct {
	Method    string          `json:"method"`
	Path      string          `json:"path"`
	JSON      json.RawMessage `json:"json,omitempty"`
	Multipart json.RawMessage `json:"multipart,omitempty"`
	Required  bool            `json:"required,omitempty"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: extract openapi.json > spec.json")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "extract:", err)
		os.Exit(1)
	}
}

func run(path string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var doc struct {
		Info       struct{ Version string }              `json:"info"`
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return err
	}
	out := struct {
		Version string                     `json:"version"`
		Routes  []Route                    `json:"routes"`
		Schemas map[string]json.RawMessage `json:"schemas"`
	}{Version: doc.Info.Version, Schemas: map[string]json.RawMessage{}}
	var need []json.RawMessage
	for _, r := range routes {
		opRaw, ok := doc.Paths[r[1]][strings.ToLower(r[0])]
		if !ok {
			return fmt.Errorf("%s %s is not in the document", r[0], r[1])
		}
		var op struct {
			RequestBody *struct {
				Required bool `json:"required"`
				Content  map[string]struct {
					Schema json.RawMessage `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
		}
		if err := json.Unmarshal(opRaw, &op); err != nil {
			return fmt.Errorf("%s %s: %w", r[0], r[1], err)
		}
		rt := Route{Method: r[0], Path: r[1]}
		if b := op.RequestBody; b != nil {
			rt.Required = b.Required
			rt.JSON = b.Content["application/json"].Schema
			rt.Multipart = b.Content["multipart/form-data"].Schema
			need = append(need, rt.JSON, rt.Multipart)
		}
		out.Routes = append(out.Routes, rt)
	}
	// Every schema the bodies refer to, and the ones those refer to.
	for len(need) > 0 {
		s := need[0]
		need = need[1:]
		for _, name := range refs(s) {
			if _, done := out.Schemas[name]; done {
				continue
			}
			def, ok := doc.Components.Schemas[name]
			if !ok {
				return fmt.Errorf("schema %s is not in the document", name)
			}
			out.Schemas[name] = def
			need = append(need, def)
		}
	}
	// The references point into the smaller document.
	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		return err
	}
	b = []byte(strings.ReplaceAll(string(b), `"#/components/schemas/`, `"#/schemas/`))
	_, err = os.Stdout.Write(append(b, '\n'))
	return err
}

// refs lists the schema names a JSON value refers to by "$ref".
func refs(raw json.RawMessage) []string {
	if len(raw) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if r, ok := v["$ref"].(string); ok && strings.HasPrefix(r, "#/components/schemas/") {
				out = append(out, strings.TrimPrefix(r, "#/components/schemas/"))
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	return out
}
