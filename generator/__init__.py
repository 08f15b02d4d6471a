"""Site generator, data bundle compiler and the lingjun-kb command."""
