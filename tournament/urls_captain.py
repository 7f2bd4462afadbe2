"""Captain URLs."""

urlpatterns: list = []
