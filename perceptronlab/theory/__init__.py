"""The theory of the perceptron, computed: geometry, separability, bounds, leave-one-out, analysis."""
