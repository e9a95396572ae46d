"""Runtime: configuration read at call time, the pool of warm helper processes, rule and code versions, and
the scale-out executor. Domain-free; every stage may import it and it imports no stage.

Where each rule lives: docs/design.md, "Where each rule lives".
"""
