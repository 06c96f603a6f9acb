# syntax=docker/dockerfile:1
#
# Red Flag Over Paris — the Discord bot.
#
#   docker build -t rfop .
#   docker run -d --name rfop --restart unless-stopped \
#       -e DISCORD_TOKEN -v rfop-data:/data rfop
#
# DISCORD_TOKEN comes from the environment at run time and is never baked
# into the image. The SQLite database lives on the /data volume.
# scripts/build-like-docker.sh builds the same binary the same way without
# Docker (keep the two in step).

# ---- build: cgo (github.com/mattn/go-sqlite3) against Debian 12's glibc ----
FROM golang:1.26-bookworm AS build
WORKDIR /src
# GOTOOLCHAIN=local: build with the image's Go, never download another.
# -buildvcs=false: .git is not in the build context (.dockerignore).
ENV CGO_ENABLED=1 GOTOOLCHAIN=local GOFLAGS=-buildvcs=false
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    go build -trimpath -ldflags="-s -w" -o /out/rfop ./cmd/rfop \
 && /out/rfop --help >/dev/null \
 && mkdir -p /out/data

# ---- run: glibc, CA certificates, no shell, uid 65532 ----
FROM gcr.io/distroless/base-debian12:nonroot
COPY --from=build /out/rfop /rfop
# The image has no shell to mkdir/chown with: copy an empty directory owned
# by nonroot, so a new named volume mounted on /data is writable by the bot.
COPY --from=build --chown=65532:65532 /out/data /data
ENV RFOP_DB=/data/rfop.db
VOLUME ["/data"]
USER nonroot:nonroot
# No HEALTHCHECK: distroless has no shell, curl or wget to run one, and the
# bot serves no HTTP. Health is signalled in the logs instead: the bot
# writes one JSON line with "msg":"ready" once it is connected to Discord
# (and "msg":"bot stopped" with the error if it fails). Watch for it with
#   docker logs -f rfop | grep -m1 '"msg":"ready"'
ENTRYPOINT ["/rfop"]
