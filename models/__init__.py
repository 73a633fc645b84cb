"""The card detector's training recipe, trained weights and model card (issue 4; not built yet)."""
