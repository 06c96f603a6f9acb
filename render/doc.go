// Package render draws Red Flag Over Paris for Discord: the board picture
// posted after every play, and card pictures for hands (DMs, ephemeral
// replies) and for /rfop card. The art is our own schematic drawing, not
// the printed board.
//
// # The board (RenderBoard, 1600×1000 PNG)
//
//   - Top: a caption line (the caller's; DefaultCaption builds one) and a
//     pill saying whose decision it is, or who won.
//   - Both Crisis Tracks, zone by zone from the centre of the board
//     outward (Starting, Escalation, Tension, Final Crisis): the cubes left
//     in each zone, its bonus cubes, and breached zones (dark header,
//     hatched, "BREACHED"). Empty outlines show the printed capacities.
//   - The Political half (Institutional green squares, Public Opinion
//     orange triangles) and the Military half (Paris purple diamonds, Forts
//     teal circles) with the twelve spaces, Versailles HQ and the Prussian
//     Occupied Territory (drawn Versailles-controlled at Prussian
//     Collaboration 3). Adjacency links are double lines; the two one-way
//     links into the National Assembly are arrows. Pivotal spaces carry a
//     star and a triple border.
//   - In each space: a blue (Versailles, left) and a red (Commune, right)
//     cube with its count, a Fortification or Barricade disc, and control
//     (coloured ring, tinted body and a banner naming the controller). A
//     fully controlled Crisis Dimension fills its chip in the half's title
//     row with the controller's colour and name.
//   - Bottom: each side's cube pool (the Commune's cells by momentum level,
//     open, shut or filled), momentum track, the cubes still under Prussian
//     Collaboration, cubes removed from play, cards in hand and set aside,
//     the Final Crisis card, objectives fulfilled (and revealed); the
//     Political and Military VP
//     tug-of-war tracks (Versailles to the left, like everything blue), the
//     round track, the initiative, the strategy deck size and the top card
//     of the discard pile.
//   - With the previous picture's view, everything that changed since is
//     ringed in gold: spaces (with +n/−n badges on the cubes), Crisis
//     Dimension chips, Crisis Track zones, pools, momentum and VP markers
//     (the old position is left as a hollow ring), cubes removed from play,
//     objectives fulfilled, the round, the initiative, the discard pile.
//
// # Hands (RenderHand)
//
// One picture of everything a player holds, from that player's own view,
// in labelled panels: "In hand (n)" (what can be played now), "Set aside
// for the Final Crisis (n)", "Final Crisis card" (while held), and
// "Objectives offered — keep one" or "Your objective". In the Final Crisis
// the hand already holds everything: one "Final Crisis hand (n)" panel.
// Small sections share a row of panels, three card columns wide.
//
// # Hidden information
//
// The renderer only ever receives an engine.View and draws only its public
// fields: never a hand, set-aside cards, an objective offer, and a kept
// objective only from a spectator view (which holds it only once revealed).
// Even so, callers must pass the public view, g.ViewFor(engine.NoSide), for
// any picture posted in a channel. Hand pictures (RenderHand) are for their
// owner only.
//
// # Static and dynamic layers
//
// New draws everything that does not depend on the game state once: the
// background, the spaces with their names, icons and empty cube places, the
// links, the track and panel frames and labels. Art that depends on a
// yes/no fact of the state (a space controlled by a side, a dimension
// held, a zone breached, a Commune pool cell open, the Prussian territory
// controlled) is also drawn once, into small sprites. A board render copies
// the static layer into a reused canvas, blits the sprites the state calls
// for and draws only the pieces, markers and text. Card pictures depend
// only on the deck and are drawn once each, on first use.
//
// # Paletted PNGs (palette.go, pngenc.go)
//
// Every picture is an 8-bit paletted PNG: a true-colour PNG of the board
// cost about three times the drawing to encode and was twice the bytes.
// Each kind of picture has its palette, built once per Renderer from its
// own drawings in its language: the named colours, then the most frequent
// colours of sample pictures (the anti-aliased edges), 254 for the board
// (the replay GIF's palette too) and 256 for cards and hands. A pixel
// becomes the index of the nearest palette colour through a lookup table
// of 6 bits a channel; a palette colour keeps its exact colour (fills,
// lines and glyph cores do not move), an edge pixel moves by a few levels
// (TestPalettedPicturesStayCloseToRGBA). No dithering. Rows are quantized
// as they are compressed (klauspost/compress's zlib: best speed for
// boards, level 4 for hands and cards, which are mostly text). A hand
// picture draws only its panels and titles in RGBA: each card's packed
// colours are mapped to the palette once and its indices copied in. The
// first board of a Renderer builds the board palette (a few boards drawn),
// the first hand or card the cards' (every card drawn, which fills the
// card cache).
//
// # Animated replays (ReplayGIF, Animation)
//
// ReplayGIF draws a finished game as an animated GIF, one frame per play and per
// scoring (the frames and what a play is come from package replay), with the
// board's caption and change highlight. Animation writes the GIF89a stream
// itself, frame by frame, over compress/lzw, so only two frames of palette
// indices are in memory whatever the game's length; each frame is cropped to
// what changed and its unchanged pixels are transparent. The palette is the
// board PNG's (above), with one more entry for the transparent pixels. With a
// size limit (Discord's 8 MiB), a replay that would not fit is drawn at half
// size; after a dozen frames the final size is projected so that the switch
// happens early.
//
// # Fonts
//
// The Go fonts (golang.org/x/image/font/gofont: Go Regular and Go Bold) are
// embedded, so rendering needs no system font. They cover Latin-1 and Latin
// Extended-A (Père Lachaise, Château, Mont-Valérien) and Cyrillic (Красное
// знамя над Парижем), so French and Russian names render as they are.
//
// # Game terms in three editions
//
// NewFor draws every label in the words of the English, French or Russian
// rulebook (package glossary): space names, Crisis Dimensions, tracks and
// zones, VP kinds, factions. Only terms are translated; card names never
// are. Since the static layer holds the space names, a Renderer serves one
// language: keep one per language in use. Labels that the other editions'
// longer words could overflow are shrunk to fit (painter.fitText,
// centredLines), and text is translated before it is measured or wrapped.
//
// # Concurrency
//
// A Renderer is safe for concurrent use: make one at start-up and share it
// between all games. Its static layer and sprites are read-only after New.
// Font faces are not goroutine-safe (they cache glyphs), so each render
// takes a private set of faces from a free list and gives it back; the
// same goes for the board-sized canvases and the pixel buffers of hand
// pictures (RenderHand paints every pixel of a reused buffer; DrawHand and
// DrawBoard return images of their own). The free lists keep
// GOMAXPROCS+1 spares, made on demand (a caller that bounds its renders
// makes no more than its bound); renders beyond that in parallel allocate
// their own and drop them afterwards. PNG encoders (their zlib state)
// are reused through a sync.Pool, and a PNG is returned at its exact size.
// Palettes are built under a sync.Once and read-only after. The card cache
// is guarded by a mutex.
package render
