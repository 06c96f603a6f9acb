// Package repocheck holds tests about the repository as a whole rather
// than one package: that it stands on its own (no file points outside it,
// to a team folder or to a path of a development machine) and that the
// documentation in docs/ stays in step with the data it describes
// (docs/cards.md with engine/cards.json, docs/rules-decisions.md with the
// decisions the code cites). It has no code of its own.
package repocheck
