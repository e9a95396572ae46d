"""Runtime: configuration read at call time, the pool of warm helper processes, rule and code versions, and
the scale-out executor. Domain-free; every stage may import it and it imports no stage.
"""
