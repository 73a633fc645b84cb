"""The reader's networks: the index detector's and the readers' training recipes, the trained
weights in ``models/weights/`` (with their ONNX exports and training records) and the model card.
"""
