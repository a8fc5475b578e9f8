using CamCube.Runtime.Posting;

namespace CamCube.Runtime.Upcalls;

/// <summary>Work a thread posted to the service (<see cref="Services.INodeContext.Post"/>), or a continuation of it.</summary>
internal readonly struct PostedUpcall(PostedItem item) : IUpcall<bool>
{
    public string Name => "posted work";

    public bool Invoke(ServiceSlot slot)
    {
        switch (item.Callback)
        {
            case Action<object?> action:
                action(item.State);
                break;
            case SendOrPostCallback continuation:
                continuation(item.State);
                break;
            case Action plain:
                plain();
                break;
        }

        return true;
    }
}
