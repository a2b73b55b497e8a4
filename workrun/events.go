package workrun

import "sync"

// subscriber has its own unbounded queue, so a slow listener (a busy GUI, a
// blocked stdout) never holds back the engine (docs/product.md W4).
type subscriber struct {
	mu     sync.Mutex
	queue  []Event
	wake   chan struct{} // capacity 1: "the queue is not empty"
	quit   chan struct{}
	once   sync.Once
	events chan Event
}

// Subscribe delivers every event of every run, in commit order per run, until
// cancel is called; the channel is closed after cancel. Events published
// before Subscribe are not replayed: read the store for history.
func (e *Engine) Subscribe() (<-chan Event, func()) {
	s := &subscriber{
		wake:   make(chan struct{}, 1),
		quit:   make(chan struct{}),
		events: make(chan Event),
	}
	e.mu.Lock()
	e.subs[s] = struct{}{}
	e.mu.Unlock()
	go s.deliver()
	cancel := func() {
		s.once.Do(func() {
			e.mu.Lock()
			delete(e.subs, s)
			e.mu.Unlock()
			close(s.quit)
		})
	}
	return s.events, cancel
}

// publish queues ev for every subscriber; it never blocks on a listener.
// Callers publish only what the store has committed.
func (e *Engine) publish(ev Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for s := range e.subs {
		s.mu.Lock()
		s.queue = append(s.queue, ev)
		s.mu.Unlock()
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
}

func (s *subscriber) deliver() {
	defer close(s.events)
	for {
		s.mu.Lock()
		batch := s.queue
		s.queue = nil
		s.mu.Unlock()
		for _, ev := range batch {
			select {
			case s.events <- ev:
			case <-s.quit:
				return
			}
		}
		select {
		case <-s.wake:
		case <-s.quit:
			return
		}
	}
}
