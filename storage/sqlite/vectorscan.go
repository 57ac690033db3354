package sqlite

import (
	"database/sql/driver"
	"fmt"
	"sync"

	"github.com/gomastra/mastra/storage/vector"
	"modernc.org/sqlite"
)

// The exact scan scores each row where SQLite holds it. Reading the
// rows out would have the driver copy every blob into a new slice (it
// copies each BLOB column it returns); instead the query hands each row
// to offerFunc, an SQL function registered with VolatileArgs, which the
// driver calls with the row's blob as a view of SQLite's memory, and
// which offers it to the query's vector.TopK. Offer reads the vector in
// place and copies only what it keeps (the best K rows' ids and
// metadata), so a scan copies no vector: what it allocates per row is
// the driver's few boxed arguments.
const offerFunc = "mastra_vector_offer"

// offerQuery is the scan of the rows that match (after index_name = ?2,
// the filter's conditions): each is offered to the search ?1; the count
// is of no use (offerFunc returns NULL).
const offerQuery = `SELECT count(` + offerFunc + `(?1, CAST(id AS BLOB), norm, embedding, CAST(metadata AS BLOB)))
	FROM mastra_vectors WHERE index_name = ?2`

func init() {
	sqlite.MustRegisterFunction(offerFunc, &sqlite.FunctionImpl{NArgs: 5, Scalar: offerRow, VolatileArgs: true})
}

// searches are the scans in progress, by number: how offerFunc, called
// with a number, finds its search.
var searches struct {
	sync.RWMutex
	m map[int64]*vector.TopK
}

// startSearch registers top for offerFunc and returns its number and the
// function that unregisters it. The number is the smallest free one, so
// that it stays under 256 (unless 256 scans run at once): the driver
// passes it to offerFunc boxed in an interface, which costs an
// allocation a row for larger integers.
func startSearch(top *vector.TopK) (int64, func()) {
	searches.Lock()
	defer searches.Unlock()
	if searches.m == nil {
		searches.m = map[int64]*vector.TopK{}
	}
	var n int64
	for searches.m[n] != nil {
		n++
	}
	searches.m[n] = top
	return n, func() {
		searches.Lock()
		delete(searches.m, n)
		searches.Unlock()
	}
}

// offerRow is offerFunc: (search, id, norm, embedding, metadata), the
// blobs views of SQLite's memory that Offer does not keep.
func offerRow(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	n, _ := args[0].(int64)
	searches.RLock()
	top := searches.m[n]
	searches.RUnlock()
	if top == nil {
		return nil, fmt.Errorf("%s: no search %d", offerFunc, n)
	}
	id, _ := args[1].([]byte)
	emb, _ := args[3].([]byte)
	meta, _ := args[4].([]byte)
	norm, ok := args[2].(float64)
	if !ok {
		return nil, fmt.Errorf("vector %s: stored norm %v", id, args[2])
	}
	return nil, top.Offer(id, norm, emb, meta)
}
