# tracelint as a container image, for GitLab CI and other systems that run
# jobs in containers: the CLI and its man pages on Debian slim.
#   docker build -t tracelint .
#   docker run --rm -v "$PWD:/work" -w /work tracelint --format=xray traces/
# Build stage: the packages that build and install the CLI, listed once in
# validators/build-packages.txt.
FROM debian:bookworm-slim AS build
COPY validators/build-packages.txt /tmp/build-packages.txt
RUN apt-get update && \
    sed 's/#.*//' /tmp/build-packages.txt | xargs apt-get install -y --no-install-recommends && \
    rm -rf /var/lib/apt/lists/*
COPY . /src
WORKDIR /src
ARG BUILD_DIR=/tmp/tracelint-build
ARG STAGE=/stage
RUN make -j"$(nproc)" BUILD="$BUILD_DIR" PREFIX=/usr/local DESTDIR="$STAGE" install

# Runtime stage: the shared libraries the binary links (tests/ci/image_test.sh
# checks this list against ldd), the binary and the man pages.
FROM debian:bookworm-slim
RUN apt-get update && \
    apt-get install -y --no-install-recommends libjson-c5 libexpat1 zlib1g libbz2-1.0 libzstd1 libinih1 && \
    rm -rf /var/lib/apt/lists/*
COPY --from=build /stage/usr/local/bin/tracelint /usr/local/bin/tracelint
COPY --from=build /stage/usr/local/share/man /usr/local/share/man
WORKDIR /work
ENTRYPOINT ["tracelint"]
CMD ["--help"]
