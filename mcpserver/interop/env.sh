# source this file: puts the interop Node 22 first on PATH.
_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PATH="$_here/nodebin/node_modules/.bin:$PATH"
