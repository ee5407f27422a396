from .classify import TileClassifier as TileClassifier
