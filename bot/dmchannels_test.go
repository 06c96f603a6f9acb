package bot

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The DM channel cache keeps at most dmChannelsSize users, drops the
// oldest first, and forgets a user whose channel Discord no longer knows
// (the next DM opens it again).
func TestDMChannelsAreBoundedAndForgotten(t *testing.T) {
	t.Parallel()
	var c dmChannels
	for k := 0; k < dmChannelsSize+10; k++ {
		c.put(fmt.Sprint("u", k), fmt.Sprint("c", k))
	}
	assert.Equal(t, dmChannelsSize, c.ids.len())
	assert.Len(t, c.ids.order, dmChannelsSize)
	_, ok := c.get("u0")
	assert.False(t, ok, "the oldest went first")
	id, ok := c.get(fmt.Sprint("u", dmChannelsSize+9))
	assert.True(t, ok)
	assert.Equal(t, fmt.Sprint("c", dmChannelsSize+9), id)

	c.forget("u20")
	_, ok = c.get("u20")
	assert.False(t, ok)
	assert.Len(t, c.ids.order, dmChannelsSize-1)
	c.put("u20", "c20b")
	assert.Len(t, c.ids.order, dmChannelsSize, "put again once, at the end")
	id, _ = c.get("u20")
	assert.Equal(t, "c20b", id)
}
