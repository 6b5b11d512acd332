// Package membus is the in-process tengen.EventBus of a single instance and
// of tests that run several services in one process.
package membus

import (
	"context"
	"sync"
)

// Bus is an in-process event bus. The zero value is not usable; call New.
type Bus struct {
	mu   sync.Mutex              // guards subs and next
	subs map[string]map[int]*sub // subscribers by topic and id
	next int
}

// sub is one subscription: a queue drained in order by its own goroutine,
// so that a slow subscriber delays only itself.
type sub struct {
	fn func([]byte)

	mu      sync.Mutex // guards queue, running and stopped
	queue   [][]byte
	running bool
	stopped bool
}

// New returns an empty bus.
func New() *Bus {
	return &Bus{subs: map[string]map[int]*sub{}}
}

// Publish implements tengen.EventBus.
func (b *Bus) Publish(ctx context.Context, topic string, payload []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range b.subs[topic] {
		s.push(payload)
	}
	return nil
}

// Subscribe implements tengen.EventBus.
func (b *Bus) Subscribe(topic string, fn func([]byte)) func() {
	s := &sub{fn: fn}
	b.mu.Lock()
	id := b.next
	b.next++
	if b.subs[topic] == nil {
		b.subs[topic] = map[int]*sub{}
	}
	b.subs[topic][id] = s
	b.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			delete(b.subs[topic], id)
			if len(b.subs[topic]) == 0 {
				delete(b.subs, topic)
			}
			b.mu.Unlock()
			s.mu.Lock()
			s.stopped = true
			s.queue = nil
			s.mu.Unlock()
		})
	}
}

// push queues payload and starts the drain goroutine when none runs. The
// caller holds the bus's lock, which orders pushes of one topic.
func (s *sub) push(payload []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return
	}
	s.queue = append(s.queue, payload)
	if !s.running {
		s.running = true
		go s.drain()
	}
}

// drain delivers queued payloads in order until the queue is empty.
func (s *sub) drain() {
	for {
		s.mu.Lock()
		if len(s.queue) == 0 || s.stopped {
			s.running = false
			s.mu.Unlock()
			return
		}
		p := s.queue[0]
		s.queue[0] = nil
		s.queue = s.queue[1:]
		s.mu.Unlock()
		s.fn(p)
	}
}
