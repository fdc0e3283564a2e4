# tsklee on Debian bookworm with Node 20, clang 14/16/19, z3 and cvc5 (the same set-up as scripts/setup).
FROM node:20-bookworm
WORKDIR /opt/tsklee
COPY package.json package-lock.json ./
COPY scripts ./scripts
RUN apt-get update -q \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      clang-14 llvm-14 clang-16 llvm-16 clang-19 llvm-19 \
      libclang-rt-14-dev libclang-rt-16-dev libclang-rt-19-dev gcc z3 cvc5 \
      csmith libcsmith-dev cvise \
 && rm -rf /var/lib/apt/lists/*
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm link
ENTRYPOINT ["tsklee"]
CMD ["--help"]
